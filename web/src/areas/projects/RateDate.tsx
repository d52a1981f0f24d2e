import { pickerDate } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { fieldDescription } from '../../ui/styles.ts';
import { useProjectTexts } from './texts.ts';

/** "From which date" of a rate change, saying plainly that earlier work keeps its rate. */
export function RateDate({ isNew, value, onChange }: { isNew: boolean; value: string | null; onChange: (date: string | null) => void }) {
  const t = useProjectTexts();
  return (
    <div className="flex flex-col gap-1.5">
      <DatePicker
        label={isNew ? t('rates.fromOptional') : t('rates.newFrom')}
        name="hourly_rate_effective_from"
        value={pickerDate(value)}
        onChange={(d) => onChange(d ? d.toString() : null)}
        isRequired={!isNew}
      />
      <p className={fieldDescription}>
        {isNew ? t('rates.emptyPricesAll') : t('rates.keepsEarlierRate')}
      </p>
    </div>
  );
}
