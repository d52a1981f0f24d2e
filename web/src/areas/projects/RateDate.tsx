import { parseDate } from '@internationalized/date';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { fieldDescription } from '../../ui/styles.ts';

/** "From which date" of a rate change, saying plainly that earlier work keeps its rate. */
export function RateDate({ isNew, value, onChange }: { isNew: boolean; value: string | null; onChange: (date: string | null) => void }) {
  return (
    <div className="flex flex-col gap-1.5">
      <DatePicker
        label={isNew ? 'Rate applies from (optional)' : 'New rate applies from'}
        name="hourly_rate_effective_from"
        value={value ? parseDate(value) : null}
        onChange={(d) => onChange(d ? d.toString() : null)}
        isRequired={!isNew}
      />
      <p className={fieldDescription}>
        {isNew ? 'Empty: the rate prices all the work, whatever its date.' : 'Work dated before this day keeps its earlier rate: it is not repriced.'}
      </p>
    </div>
  );
}
