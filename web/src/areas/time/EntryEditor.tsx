import { useMemo, useState } from 'react';
import { DialogTrigger, type Key } from 'react-aria-components';
import { useFormat } from '../../api/format.ts';
import { HttpError, NetworkError } from '../../api/call.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ComboBox, type ComboOption } from '../../ui/ComboBox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { parseDuration, secondsToHours } from '../../ui/duration.ts';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { parseTimeOfDay } from '../../ui/time-of-day.ts';
import { TimeOfDayField } from '../../ui/TimeOfDayField.tsx';
import { useContinueEntry, useCreateEntry, useDeleteEntry, useUpdateEntry, type EntryChanges, type NewEntry, type WebEntry, NOTES_MAX } from './api.ts';
import { choiceId, choiceLabel } from './choices.ts';
import { usePairOptions } from './pair-options.ts';
import type { Lock } from './locks.ts';
import { useTimeTexts } from './texts.ts';
import { choiceOfEntry, longDayLabel } from './week.ts';

/** The API's fields the editor shows; an error naming another goes above the form. */
const FIELDS = ['project_id', 'task_id', 'hours', 'started_time', 'ended_time', 'notes', 'billable'] as const;

export interface EntryEditorProps {
  /** The entry to change; absent: a new entry on `date`. */
  entry?: WebEntry;
  date: string;
  /** A new entry's start and end (the calendar's drag), `HH:mm`. */
  initialTimes?: { started_time: string; ended_time: string };
  /** Why the entry cannot change (locks.ts); it is then shown, not edited. */
  lock: Lock | null;
  /** Today in the workspace zone: Continue restarts today's entry, starts a new timer for an earlier one's. */
  today: string;
  /** Whether the entry is the caller's (Continue starts the caller's timer). */
  own: boolean;
  /** After a save, a create or a delete (a dialog closes). */
  onDone?: () => void;
  /** After a delete, once the entry is gone (the view moves focus and says so: deleted.tsx). */
  onDeleted?: (entry: WebEntry) => void;
}

/**
 * One time entry, editable (issue 21 item 4): project and task, hours or start and end,
 * billable, notes; Save sends only what changed (one PATCH), or creates the entry (one POST
 * with an Idempotency-Key). Delete asks first; Continue runs it again. A locked entry is
 * shown with the reason instead. Errors land under the field the API names.
 */
export function EntryEditor(props: EntryEditorProps) {
  const { entry, lock } = props;
  if (entry && lock) return <LockedEntry entry={entry} lock={lock} />;
  return <EditableEntry {...props} />;
}

function LockedEntry({ entry, lock }: { entry: WebEntry; lock: Lock }) {
  const t = useTimeTexts();
  const format = useFormat();
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p className="font-medium text-stone-900">{choiceLabel(choiceOfEntry(entry))}</p>
      <p className="tabular-nums text-stone-700">
        {format.duration(entry.duration_seconds)}
        {entry.started_time && ` · ${format.time(entry.started_time)} – ${entry.ended_time ? format.time(entry.ended_time) : ''}`}
        {` · ${entry.billable ? t('editor.billable') : t('editor.notBillable')}`}
      </p>
      {entry.notes && <p className="text-stone-700">{entry.notes}</p>}
      <Alert tone="info">{lock.reason}</Alert>
    </div>
  );
}

function EditableEntry({ entry, date, initialTimes, today, own, onDone, onDeleted }: EntryEditorProps) {
  const update = useUpdateEntry();
  const create = useCreateEntry();
  const keyFor = useIdempotencyKey();
  const t = useTimeTexts();
  const format = useFormat();
  const start0 = entry?.started_time ?? initialTimes?.started_time ?? '';
  const end0 = entry?.ended_time ?? initialTimes?.ended_time ?? '';
  // The hours as the person reads them ("1:30", or "1.50" / "1,50" in decimal style); parseDuration takes all of them.
  const hours0 = entry ? format.duration(entry.duration_seconds) : '';
  const [selected, setSelected] = useState<Key | null>(entry ? choiceId(entry) : null);
  const [hours, setHours] = useState(hours0);
  const [start, setStart] = useState(start0);
  const [end, setEnd] = useState(end0);
  const [notes, setNotes] = useState(entry?.notes ?? '');
  const [billable, setBillable] = useState<boolean | null>(entry ? entry.billable : null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  // The list of thousands of pairs is built once the field is focused (as the week's Add row):
  // until then it holds the entry's own pair, which may no longer be offered (an archived project).
  // The pairs come from the cached choices (recently used first), asked for on first focus.
  const pairs = usePairOptions();
  const own0 = useMemo(() => (entry ? choiceOfEntry(entry) : undefined), [entry]);
  const ownMissing = own0 !== undefined && !pairs.find(choiceId(own0));
  // Until the list is loaded, and when it no longer offers it (an archived project), the entry's own pair is an option.
  const options = useMemo<ComboOption[]>(() => {
    const ownOption = own0 && (ownMissing || !pairs.choices) ? [{ id: choiceId(own0), label: choiceLabel(own0) }] : [];
    return [...ownOption, ...pairs.options];
  }, [ownMissing, own0, pairs.choices, pairs.options]);
  const choice = pairs.find(selected) ?? (own0 && choiceId(own0) === selected ? own0 : undefined);
  const saving = entry ? update : create;
  const { fieldErrors, summary } = formErrors(saving.error, FIELDS);
  const errors = { ...fieldErrors, ...problems };
  const workError = errors.project_id ?? errors.task_id;
  const running = entry?.is_running ?? false;
  const timeNote = running ? t('editor.stopToChange') : undefined;
  // Any edit takes the previous messages away (a field left invalid would block the next submit).
  const edited = () => {
    if (Object.keys(problems).length) setProblems({});
    if (saving.isError) saving.reset();
  };
  const on = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    edited();
  };

  const submit = () => {
    const found: Record<string, string> = {};
    if (!choice) found.project_id = t('choosePair');
    const time = (text: string, field: 'started_time' | 'ended_time') => {
      if (!text.trim()) return null;
      const parsed = parseTimeOfDay(text);
      if ('error' in parsed) found[field] = parsed.error;
      return 'time' in parsed ? parsed.time : null;
    };
    const startTime = time(start, 'started_time');
    const endTime = time(end, 'ended_time');
    // HH:mm strings order as the times do, as in the day's add form.
    if (startTime && endTime && endTime <= startTime) found.ended_time = t('add.endAfterStart');
    let seconds: number | undefined;
    if (hours.trim()) {
      const parsed = parseDuration(hours);
      if ('error' in parsed) found.hours = parsed.error;
      else seconds = parsed.seconds;
    } else if (!running && (!startTime || !endTime)) {
      found.hours = t('enterHoursOrTimes');
    }
    setProblems(found);
    if (!choice || Object.keys(found).length || saving.isPending) return;

    if (!entry) {
      const body: NewEntry = {
        project_id: choice.project_id,
        task_id: choice.task_id,
        spent_date: date,
        ...(seconds !== undefined ? { hours: secondsToHours(seconds) } : {}),
        ...(startTime ? { started_time: startTime } : {}),
        ...(endTime ? { ended_time: endTime } : {}),
        notes: notes.trim() || null,
        billable: billable ?? choice.billable,
        source: 'web',
      };
      create.mutate({ body, key: keyFor(body) }, { onSuccess: () => onDone?.() });
      return;
    }
    const body: EntryChanges = {};
    if (choiceId(choice) !== choiceId(entry)) Object.assign(body, { project_id: choice.project_id, task_id: choice.task_id });
    if (!running) {
      const timesChanged = (startTime ?? '') !== start0 || (endTime ?? '') !== end0;
      // Hours alone replace the duration and clear the times (the API's rule); new times recompute it.
      if (timesChanged && (startTime || endTime)) Object.assign(body, { started_time: startTime, ended_time: endTime });
      if (seconds !== undefined && (hours !== hours0 || (timesChanged && !startTime && !endTime))) body.hours = secondsToHours(seconds);
    }
    if ((notes.trim() || null) !== (entry.notes ?? null)) body.notes = notes.trim() || null;
    if (billable !== null && billable !== entry.billable) body.billable = billable;
    if (Object.keys(body).length === 0) {
      onDone?.();
      return;
    }
    update.mutate({ id: entry.id, body }, { onSuccess: () => onDone?.() });
  };

  return (
    <Form
      validationErrors={errors}
      className="grid grid-cols-3 gap-x-3 gap-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {summary && <Alert className="col-span-3">{summary}</Alert>}
      <ComboBox
        label={t('projectAndTask')}
        className="col-span-3"
        options={options}
        onFocus={pairs.want}
        selectedKey={selected}
        onSelectionChange={(key) => {
          setSelected(key);
          if (!entry) setBillable(null);
          edited();
        }}
        emptyText={t('noPairMatches')}
        isInvalid={Boolean(workError)}
        errorMessage={workError}
      />
      <TextField
        name="hours"
        label={t('hours')}
        className="col-span-3 sm:col-span-1"
        value={hours}
        onChange={on(setHours)}
        onBlur={() => {
          const parsed = hours.trim() ? parseDuration(hours) : null;
          if (parsed && 'seconds' in parsed) setHours(format.duration(parsed.seconds));
        }}
        isDisabled={running}
        description={timeNote ?? (entry?.started_time ? t('editor.hoursClearTimes') : t('editor.hoursHint'))}
        inputMode="decimal"
        autoComplete="off"
      />
      <TimeOfDayField name="started_time" label={t('start')} className="col-span-3 sm:col-span-1" value={start} onChange={on(setStart)} isDisabled={running} description={timeNote} />
      <TimeOfDayField name="ended_time" label={t('end')} className="col-span-3 sm:col-span-1" value={end} onChange={on(setEnd)} isDisabled={running} description={timeNote} />
      <TextField name="notes" label={t('notes')} maxLength={NOTES_MAX} className="col-span-3" value={notes} onChange={on(setNotes)} autoComplete="off" />
      <Checkbox className="col-span-3" isSelected={billable ?? choice?.billable ?? true} onChange={on(setBillable)}>
        {t('billable')}
      </Checkbox>
      <div className="col-span-3 flex flex-wrap items-center justify-end gap-2">
        {entry && (
          <DeleteEntryButton
            entry={entry}
            onDeleted={() => {
              onDone?.();
              onDeleted?.(entry);
            }}
          />
        )}
        {entry && own && !running && <ContinueButton entry={entry} today={today} />}
        <Button type="submit" isPending={saving.isPending}>
          {entry ? t('editor.save') : t('addEntry')}
        </Button>
      </div>
    </Form>
  );
}

export const entryLabel = (entry: WebEntry) => `${entry.project.name}, ${entry.task?.name ?? ''}`;

/** Delete, after a confirmation naming what goes. */
export function DeleteEntryButton({ entry, onDeleted }: { entry: WebEntry; onDeleted?: () => void }) {
  const remove = useDeleteEntry();
  const t = useTimeTexts();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) remove.reset();
      }}
    >
      <Button variant="quiet" className="mr-auto text-red-800" aria-label={t('editor.deleteOf', { work: entryLabel(entry) })}>
        {t('editor.delete')}
      </Button>
      <Dialog title={t('editor.deleteQuestion')}>
        <div className="flex flex-col gap-4">
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <p className="text-sm text-stone-700">
            {t('editor.deleteExplained', { hours: format.duration(entry.duration_seconds), work: entryLabel(entry), day: longDayLabel(format, entry.spent_date) })}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              {t('editor.keepIt')}
            </Button>
            <Button
              variant="danger"
              isPending={remove.isPending}
              onPress={() =>
                remove.mutate(entry.id, {
                  onSuccess: () => {
                    setOpen(false);
                    onDeleted?.();
                  },
                })
              }
            >
              {t('editor.deleteEntry')}
            </Button>
          </div>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}

/**
 * Continue: today's entry runs again, an earlier day's starts a new timer (api.ts). Another
 * running timer is said with one action: stop it and continue this one.
 */
export function ContinueButton({ entry, today }: { entry: WebEntry; today: string }) {
  const go = useContinueEntry();
  const t = useTimeTexts();
  const [key, setKey] = useState('');
  const error = go.error ? describeError(go.error) : null;
  const conflict = error?.code === 'running_timer_conflict';
  const label = entryLabel(entry);
  const start = (replace: boolean) => {
    // A new press is a new start; only a retry of one whose answer never came (network, 5xx) reuses its key.
    const retry = go.error instanceof NetworkError || (go.error instanceof HttpError && go.error.status >= 500);
    const k = !replace && retry && key ? key : crypto.randomUUID();
    setKey(k);
    go.mutate({ entry, today, key: k, replace });
  };
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button variant="secondary" aria-label={t('editor.continueOf', { work: label })} isPending={go.isPending} onPress={() => start(false)}>
        {t('editor.continue')}
      </Button>
      {error && (
        <span role="alert" className="flex max-w-64 flex-col items-end gap-1 text-right text-xs text-red-700">
          {conflict ? t('editor.anotherRunning') : error.message}
          {conflict && (
            <Button variant="quiet" className="min-h-8 px-2 text-xs" onPress={() => start(true)}>
              {t('editor.replace')}
            </Button>
          )}
        </span>
      )}
    </span>
  );
}
