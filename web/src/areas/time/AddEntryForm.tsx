import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Key } from 'react-aria-components';
import { formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { useCommand } from '../../ui/commands.ts';
import { parseDuration, secondsToHours } from '../../ui/duration.ts';
import { parseTimeOfDay } from '../../ui/time-of-day.ts';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { TextField } from '../../ui/TextField.tsx';
import { useCreateEntry, type NewEntry, NOTES_MAX } from './api.ts';
import { choiceLabel } from './choices.ts';
import { usePairOptions } from './pair-options.ts';
import { useTimeTexts } from './texts.ts';

const FIELDS = ['project_id', 'task_id', 'hours', 'started_time', 'ended_time', 'notes', 'billable'] as const;

/**
 * The day view's "Add entry" (issue 16 item 1): a project and task, then either a duration
 * (typed as in the week grid) or a start and an end time, notes and billable. The API's
 * refusal shows under the field it names; a project or task problem under the type-ahead.
 */
export function AddEntryForm({ date }: { date: string }) {
  const create = useCreateEntry();
  const t = useTimeTexts();
  const keyFor = useIdempotencyKey();
  const [selected, setSelected] = useState<Key | null>(null);
  const [billable, setBillable] = useState<boolean | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [formKey, setFormKey] = useState(0);
  const [done, setDone] = useState('');
  const pairs = usePairOptions();
  const choice = pairs.find(selected);
  const { fieldErrors, summary } = formErrors(create.error, FIELDS);
  const errors = { ...fieldErrors, ...problems };
  const workError = errors.project_id ?? errors.task_id;
  // Any edit takes the previous messages away (a field left invalid would block the next submit).
  const edited = () => {
    if (Object.keys(problems).length) setProblems({});
    if (create.isError) create.reset();
  };
  // The `n` shortcut (app/shell/Shortcuts.tsx), and `?new=1` (where the shortcut leads from other pages: /time/day?new=1): the picker.
  const sectionRef = useRef<HTMLElement>(null);
  const focusPicker = () => sectionRef.current?.querySelector<HTMLInputElement>('input[role="combobox"]')?.focus();
  useCommand('entry.new', () => {
    focusPicker();
    sectionRef.current?.scrollIntoView({ block: 'nearest' });
  });
  const [params, setParams] = useSearchParams();
  const asked = params.get('new') === '1';
  useEffect(() => {
    if (!asked) return;
    // After the frame: the root moves the focus to a new page's heading in its own effect, which runs after this one.
    requestAnimationFrame(focusPicker);
    setParams((p) => {
      p.delete('new');
      return p;
    }, { replace: true });
  }, [asked, setParams]);

  return (
    <section ref={sectionRef} aria-labelledby="add-entry-heading" className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
      <h2 id="add-entry-heading" className="mb-3 text-base font-semibold text-stone-900">
        {t('addEntry')}
      </h2>
      <Form
        key={formKey}
        validationErrors={errors}
        className="grid gap-4 md:grid-cols-4"
        onSubmit={(event) => {
          const fields = fieldsOf(event);
          const found: Record<string, string> = {};
          if (!choice) found.project_id = t('choosePair');
          // Times as people type them (9, 930, 9:30pm), sent as HH:mm.
          const time = (field: 'started_time' | 'ended_time') => {
            const text = fields[field]?.trim() ?? '';
            if (!text) return '';
            const parsed = parseTimeOfDay(text);
            if ('error' in parsed) found[field] = parsed.error;
            return 'time' in parsed ? parsed.time : '';
          };
          const start = time('started_time');
          const end = time('ended_time');
          // HH:mm strings order as the times do. (A span the clocks skip is the server's to name.)
          if (start && end && end <= start) found.ended_time = t('add.endAfterStart');
          const hoursText = fields.hours?.trim() ?? '';
          let hours: number | undefined;
          if (hoursText) {
            const parsed = parseDuration(hoursText);
            if ('error' in parsed) found.hours = parsed.error;
            else hours = secondsToHours(parsed.seconds);
          } else if ((!start || !end) && !found.started_time && !found.ended_time) {
            found.hours = t('enterHoursOrTimes');
          }
          setProblems(found);
          if (!choice || Object.keys(found).length || create.isPending) return;
          const body: NewEntry = {
            project_id: choice.project_id,
            task_id: choice.task_id,
            spent_date: date,
            ...(hours !== undefined ? { hours } : {}),
            ...(start ? { started_time: start } : {}),
            ...(end ? { ended_time: end } : {}),
            notes: fields.notes?.trim() || null,
            billable: billable ?? choice.billable,
            source: 'web',
          };
          create.mutate(
            { body, key: keyFor(body) },
            {
              onSuccess: () => {
                setSelected(null);
                setBillable(null);
                setFormKey((k) => k + 1);
                setDone(t('add.added', { work: choiceLabel(choice) }));
              },
            },
          );
        }}
      >
        {summary && <Alert className="md:col-span-4">{summary}</Alert>}
        <ComboBox
          label={t('projectAndTask')}
          className="md:col-span-4"
          options={pairs.options}
          onFocus={pairs.want}
          selectedKey={selected}
          onSelectionChange={(key) => {
            setSelected(key);
            setBillable(null);
            edited();
          }}
          emptyText={pairs.isPending ? t('loadingProjects') : t('noPairMatches')}
          isInvalid={Boolean(workError)}
          errorMessage={workError}
        />
        <TextField name="hours" onChange={edited} label={t('hours')} description={t('add.hoursHint')} inputMode="decimal" autoComplete="off" />
        <TextField name="started_time" onChange={edited} label={t('start')} description={t('add.startHint')} placeholder="09:00" autoComplete="off" />
        <TextField name="ended_time" onChange={edited} label={t('end')} description={t('add.endHint')} placeholder="10:30" autoComplete="off" />
        <div className="flex items-center md:pt-7">
          <Checkbox isSelected={billable ?? choice?.billable ?? true} onChange={(b) => { setBillable(b); edited(); }}>
            {t('billable')}
          </Checkbox>
        </div>
        <TextField name="notes" onChange={edited} label={t('notes')} maxLength={NOTES_MAX} className="md:col-span-3" autoComplete="off" />
        <div className="flex items-end">
          <Button type="submit" isPending={create.isPending}>
            {t('addEntry')}
          </Button>
        </div>
      </Form>
      <p role="status" className="mt-2 text-sm text-stone-600">
        {done}
      </p>
    </section>
  );
}
