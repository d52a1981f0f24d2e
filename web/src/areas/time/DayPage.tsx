import { useQuery } from '@tanstack/react-query';
import { Fragment, useRef, useState } from 'react';
import { DialogTrigger, Form, TextArea, TextField as AriaTextField, Label, Text } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { useFormat } from '../../api/format.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { LockIcon } from '../../ui/icons.tsx';
import { cx, fieldDescription, fieldLabel, inputBox } from '../../ui/styles.ts';
import { sheetQuery, useSavePrivateNotes, useUpdateEntry, type WebEntry } from './api.ts';
import { byTime, EntryDialog } from './EntryEditDialog.tsx';
import { ContinueButton, entryLabel } from './EntryEditor.tsx';
import { lockOf, weekApproved, type Lock } from './locks.ts';
import { WeekLocked } from './WeekLocked.tsx';
import { ReturnedWeek } from './ReturnedWeek.tsx';
import { AddEntryForm } from './AddEntryForm.tsx';
import { useTimeTexts } from './texts.ts';
import { TimeHeader } from './TimeHeader.tsx';
import { useServerNow } from '../../api/server-clock.ts';
import { longDayLabel, secondsOf } from './week.ts';
import { breaksBetween, type Break } from './breaks.ts';
import { FieldErrorText } from '../../ui/FieldErrorText.tsx';
import { useDeletedEntry } from './deleted.tsx';

/** One day's entries with their start and end times, billable flag, notes and private notes. */
export function DayPage() {
  const [params] = useSearchParams();
  const date = params.get('date') ?? undefined;
  const user = params.get('user') ?? undefined;
  const session = useSession();
  const t = useTimeTexts();
  const format = useFormat();
  const { data: sheet, error } = useQuery(sheetQuery(date, user));
  const day = date ?? sheet?.today;
  const entries = byTime((sheet?.entries ?? []).filter((e) => e.spent_date === day));
  const now = useServerNow(entries.some((e) => e.is_running));
  const breaks = new Map(breaksBetween(entries).map((b) => [b.after, b]));
  const region = useRef<HTMLDivElement>(null);
  const deleted = useDeletedEntry(region);
  if (error && !sheet) return <Alert>{describeError(error).message}</Alert>;
  if (!sheet || !day) return <TimeHeader view="day" />;
  // Someone else's day: no "Add entry" (it would record the caller's time) and no private notes (theirs to keep).
  const own = sheet.user.id === session.user.id;
  const locked = weekApproved(sheet.entries);

  return (
    <div className="flex flex-col gap-6">
      <TimeHeader view="day" date={day} today={sheet.today} from={sheet.from} user={own ? undefined : sheet.user.id} person={own ? undefined : sheet.user.name} />
      {own && <ReturnedWeek from={sheet.from} entries={sheet.entries} />}
      {/* Focusable: at 390 px the table scrolls sideways, and an empty day has nothing else to focus to scroll it by keyboard. */}
      <div ref={region} tabIndex={0} role="region" aria-label={t('dayView.entriesOf', { day: longDayLabel(format, day) })} className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs focus-visible:outline-2 focus-visible:outline-teal-600">
        <table data-stack className="w-full min-w-[40rem] border-collapse text-sm">
          <caption className="sr-only">{t('dayView.entriesOf', { day: longDayLabel(format, day) })}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">{t('dayView.work')}</th>
              <th scope="col" className="px-3 py-2">{t('dayView.startEnd')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('hours')}</th>
              <th scope="col" className="px-3 py-2">{t('billable')}</th>
              <th scope="col" className="px-3 py-2"><span className="sr-only">{t('dayView.actions')}</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {entries.length === 0 && (
              <tr>
                {/* Only the person themself, on a week still open, has the timer and the form below to add with. */}
                <td colSpan={5} className="px-3 py-6 text-center text-stone-600">{t(own && !locked ? 'dayView.empty' : 'dayView.emptyClosed')}</td>
              </tr>
            )}
            {entries.map((e) => {
              const gap = breaks.get(e.id);
              return (
                <Fragment key={e.id}>
                  <EntryRow entry={e} now={now} own={own} today={sheet.today} lock={lockOf(e, locked)} onDeleted={deleted.onDeleted} />
                  {gap && <BreakRow gap={gap} />}
                </Fragment>
              );
            })}
          </tbody>
          <tfoot className="border-t border-stone-200 bg-stone-50">
            <tr>
              <th scope="row" colSpan={2} className="px-3 py-2 text-left font-semibold">{t('total')}</th>
              <td className="px-3 py-2 text-right font-semibold tabular-nums">{format.duration(secondsOf(entries, now))}</td>
              <td colSpan={2} />
            </tr>
          </tfoot>
        </table>
      </div>
      {deleted.status}
      {own && (locked ? <WeekLocked text={t('lock.week')} /> : <AddEntryForm date={day} />)}
    </div>
  );
}

/** The gap between two timed entries: a quiet line, not an entry (nothing to press). */
function BreakRow({ gap }: { gap: Break }) {
  const t = useTimeTexts();
  const format = useFormat();
  const span = { from: format.time(gap.from), to: format.time(gap.to) };
  return (
    <tr className="bg-stone-50/60">
      {/* A row header (not a cell): on a phone, the stacked table gives it no column name. */}
      <th scope="row" colSpan={5} className="px-3 py-1.5 text-left text-xs font-normal text-stone-600 italic">
        {gap.minutes < 60 ? t('dayView.break', { ...span, minutes: gap.minutes }) : t('dayView.breakLong', { ...span, duration: format.duration(gap.minutes * 60) })}
      </th>
    </tr>
  );
}

interface EntryRowProps {
  entry: WebEntry;
  now: number;
  own: boolean;
  today: string;
  lock: Lock | null;
  onDeleted: (entry: WebEntry) => void;
}

/** One entry: Edit opens the entry editor, Continue runs it again; a locked one says why instead. */
function EntryRow({ entry, now, own, today, lock, onDeleted }: EntryRowProps) {
  const update = useUpdateEntry();
  const t = useTimeTexts();
  const format = useFormat();
  const [editing, setEditing] = useState(false);
  const label = entryLabel(entry);
  return (
    <tr>
      <th scope="row" className="px-3 py-2 text-left font-normal">
        <span className="block font-medium text-stone-900">{entry.project.name}</span>
        <span className="block text-xs text-stone-600">
          {entry.client.name} · {entry.task?.name}
        </span>
        {entry.notes && <span className="mt-1 block text-stone-700">{entry.notes}</span>}
        {entry.private_notes && (
          <span className="mt-1 block text-xs text-stone-600">
            <span className="font-medium">{t('dayView.privateNoteLabel')}</span> {entry.private_notes}
          </span>
        )}
        {lock && (
          <span className="mt-1 flex items-start gap-1 text-xs text-stone-700">
            <LockIcon className="mt-px size-3.5 shrink-0" />
            {lock.reason}
          </span>
        )}
      </th>
      <td className="px-3 py-2 tabular-nums text-stone-800">
        {/* An entry of hours alone has no span: one dash, not "– – –". */}
        {!entry.started_time && !entry.ended_time && !entry.is_running
          ? '–'
          : `${entry.started_time ? format.time(entry.started_time) : '–'} – ${entry.is_running ? t('running') : entry.ended_time ? format.time(entry.ended_time) : '–'}`}
      </td>
      <td className="px-3 py-2 text-right tabular-nums">{format.duration(secondsOf([entry], now))}</td>
      <td className="px-3 py-2">
        <Checkbox
          aria-label={t('dayView.billableOf', { work: label })}
          isSelected={update.isPending && update.variables.body.billable !== undefined ? update.variables.body.billable : entry.billable}
          isDisabled={Boolean(lock)}
          onChange={(billable) => update.mutate({ id: entry.id, body: { billable } })}
        >
          <span className="sr-only">{t('billable')}</span>
        </Checkbox>
        {update.error && <span role="alert" className="block text-xs text-red-700">{describeError(update.error).message}</span>}
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-wrap items-start justify-end gap-2">
          {!lock && (
            <Button variant="secondary" aria-label={t('dayView.editOf', { work: label })} onPress={() => setEditing(true)}>
              {t('dayView.edit')}
            </Button>
          )}
          {own && !entry.is_running && <ContinueButton entry={entry} today={today} />}
          {own && <PrivateNoteButton entry={entry} label={label} />}
        </div>
        {editing && (
          <EntryDialog title={t('editEntry')} isOpen={editing} onOpenChange={setEditing} entry={entry} date={entry.spent_date} lock={lock} today={today} own={own} onDeleted={onDeleted} />
        )}
      </td>
    </tr>
  );
}

function PrivateNoteButton({ entry, label }: { entry: WebEntry; label: string }) {
  const [open, setOpen] = useState(false);
  const save = useSavePrivateNotes();
  const t = useTimeTexts();
  const { fieldErrors, summary } = formErrors(save.error, ['private_notes']);
  return (
    <DialogTrigger isOpen={open} onOpenChange={(o) => { setOpen(o); if (!o) save.reset(); }}>
      <Button variant="quiet" aria-label={t('dayView.privateNoteOf', { work: label })}>
        {entry.private_notes ? t('dayView.editPrivateNote') : t('dayView.privateNote')}
      </Button>
      <Dialog title={t('dayView.privateNote')}>
        <Form
          validationErrors={fieldErrors}
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            const text = String(new FormData(e.currentTarget).get('private_notes') ?? '');
            save.mutate({ id: entry.id, privateNotes: text }, { onSuccess: () => setOpen(false) });
          }}
        >
          {summary && <Alert>{summary}</Alert>}
          <p className="text-sm text-stone-700">{label}</p>
          <AriaTextField name="private_notes" defaultValue={entry.private_notes ?? ''} className="flex flex-col gap-1.5">
            <Label className={fieldLabel}>{t('dayView.privateNote')}</Label>
            <TextArea rows={4} className={cx(inputBox, 'resize-y')} />
            <Text slot="description" className={fieldDescription}>
              {t('dayView.privateNoteHint')}
            </Text>
            <FieldErrorText />
          </AriaTextField>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">{t('cancel')}</Button>
            <Button type="submit" isPending={save.isPending}>{t('dayView.savePrivateNote')}</Button>
          </div>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}
