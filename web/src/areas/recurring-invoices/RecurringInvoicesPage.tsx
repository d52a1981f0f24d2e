import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { useLocale } from '../../ui/i18n.ts';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { schedulesQuery, useDeleteSchedule, useUpdateSchedule, type Occurrence, type Schedule } from './api.ts';
import { ScheduleForm } from './ScheduleForm.tsx';
import { useRecurringTexts } from './texts.ts';

/**
 * Invoices → Recurring: the workspace's recurring invoices, each with when it
 * repeats, what it bills, what happens then, and the invoices it made (linked).
 * Owners and administrators create, edit, pause, resume and delete them.
 */
export function RecurringInvoicesPage() {
  const t = useRecurringTexts();
  const schedules = useQuery(schedulesQuery);
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link href="/invoices" className="self-start text-sm">
          {t('backToInvoices')}
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <PageHeading>{t('heading')}</PageHeading>
          <ScheduleDialog onDone={setDone} />
        </div>
        <p className="max-w-3xl text-sm text-stone-600">{t('intro')}</p>
      </div>
      {schedules.isError && <Alert>{describeError(schedules.error).message}</Alert>}
      {done && (
        <Alert tone="success" className="max-w-3xl">
          {done}
        </Alert>
      )}
      {!schedules.data && !schedules.isError && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {schedules.data && schedules.data.length === 0 && (
        <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">{t('noneYet')}</div>
      )}
      {schedules.data && schedules.data.length > 0 && (
        <ul aria-label={t('listLabel')} className="flex flex-col gap-4">
          {schedules.data.map((s) => (
            <ScheduleCard key={s.id} schedule={s} onDone={setDone} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** "Every month on day 1", in the person's language. */
function useRepeats() {
  const t = useRecurringTexts();
  const locale = useLocale();
  return (s: Pick<Schedule, 'frequency' | 'anchor_day' | 'start_date'>) => {
    if (s.frequency === 'weekly') return t('every.weekly', { day: t(`form.weekdays.d${s.anchor_day as 1}`) });
    if (s.frequency === 'yearly') {
      const month = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(new Date(`${s.start_date.slice(0, 7)}-01T00:00:00Z`));
      return t('every.yearly', { day: s.anchor_day, month });
    }
    if (s.anchor_day === 31) return t(s.frequency === 'monthly' ? 'every.monthlyLast' : 'every.quarterlyLast');
    return t(`every.${s.frequency}`, { day: s.anchor_day });
  };
}

function ScheduleCard({ schedule: s, onDone }: { schedule: Schedule; onDone: (message: string) => void }) {
  const t = useRecurringTexts();
  const format = useFormat();
  const repeats = useRepeats();
  const update = useUpdateSchedule();
  const headingId = `schedule-${s.id}`;
  const client = s.client.name;
  const status = s.is_paused ? t('paused') : s.next_run_date ? t('next', { date: format.day(s.next_run_date) }) : t('ended');
  const what =
    s.source === 'lines'
      ? t('linesSummary', { count: s.line_items.length })
      : s.project_ids.length
        ? t('workSummaryProjects', { count: s.project_ids.length })
        : t('workSummary');
  const action = s.action === 'send' ? t('sendsTo', { to: s.recipients.map((r) => r.email).join(', ') }) : t('draftOnly');
  const toggle = () =>
    update.mutate(
      { id: s.id, body: { is_paused: !s.is_paused } },
      { onSuccess: (saved) => onDone(t(saved.is_paused ? 'pausedDone' : 'resumedDone', { client })) },
    );
  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 text-sm">
          <h2 id={headingId} className="text-base font-semibold break-words text-stone-900">
            {client}
            {s.subject && <span className="font-normal text-stone-600"> · {s.subject}</span>}
          </h2>
          <p className="text-stone-800">
            {repeats(s)} ·{' '}
            {s.end_date
              ? t('fromTo', { from: format.day(s.start_date), to: format.day(s.end_date) })
              : t('from', { date: format.day(s.start_date) })}
          </p>
          <p className="text-stone-600">
            {what} · {action}
          </p>
          <p className={s.is_paused || !s.next_run_date ? 'font-medium text-amber-800' : 'font-medium text-teal-800'}>{status}</p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <ScheduleDialog schedule={s} onDone={onDone} />
          {s.next_run_date !== null || s.is_paused ? (
            <Button
              variant="secondary"
              aria-label={t(s.is_paused ? 'resumeNamed' : 'pauseNamed', { client })}
              isPending={update.isPending}
              onPress={toggle}
            >
              {s.is_paused ? t('resume') : t('pause')}
            </Button>
          ) : null}
          <DeleteDialog schedule={s} onDone={onDone} />
        </div>
      </div>
      {update.error && <Alert className="mt-3">{describeError(update.error).message}</Alert>}
      <Occurrences schedule={s} />
    </li>
  );
}

function Occurrences({ schedule: s }: { schedule: Schedule }) {
  const t = useRecurringTexts();
  const format = useFormat();
  const result = (o: Occurrence) => t(`occurrence.${o.outcome}`);
  // The scheduler writes its notes in English; the known ones are said in the person's language.
  const noteOf = (note: string) => {
    const late = /^Made late \(on (\d{4}-\d{2}-\d{2})/.exec(note);
    if (late) return t('occurrence.lateNote', { date: format.day(late[1]) });
    if (note.startsWith('Nothing to import')) return t('occurrence.nothingNote');
    if (note.startsWith('The client is archived')) return t('occurrence.clientArchivedNote');
    return null;
  };
  return (
    <div className="mt-4 border-t border-stone-100 pt-3">
      <h3 className="text-xs font-semibold text-stone-600 uppercase">{t('occurrences')}</h3>
      {s.occurrences.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600">{t('noOccurrences')}</p>
      ) : (
        <table data-stack className="mt-2 w-full border-collapse text-sm">
          <caption className="sr-only">{t('occurrence.caption', { client: s.client.name })}</caption>
          <thead className="text-left text-xs text-stone-600">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">{t('occurrence.date')}</th>
              <th scope="col" className="py-1 pr-3 font-medium">{t('occurrence.period')}</th>
              <th scope="col" className="py-1 pr-3 font-medium">{t('occurrence.invoice')}</th>
              <th scope="col" className="py-1 font-medium">{t('occurrence.result')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {s.occurrences.map((o) => (
              <tr key={o.id} className="align-top">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal whitespace-nowrap">{format.day(o.occurrence_date)}</th>
                <td className="py-1.5 pr-3 whitespace-nowrap">{t('occurrence.range', { from: format.day(o.period_start), to: format.day(o.period_end) })}</td>
                <td className="py-1.5 pr-3">
                  {o.invoice ? (
                    <Link href={`/invoices/${o.invoice.id}`}>{t('occurrence.invoiceLink', { number: o.invoice.number })}</Link>
                  ) : o.outcome === 'skipped' ? (
                    '–'
                  ) : (
                    <span className="text-stone-600">{t('occurrence.deleted')}</span>
                  )}
                </td>
                <td className="py-1.5">
                  <span className="font-medium">{result(o)}</span>
                  {o.note && (
                    <span className="block text-xs text-stone-600" lang={noteOf(o.note) === null ? 'en' : undefined}>
                      {noteOf(o.note) ?? o.note}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** "New recurring invoice", or "Edit" on one: the form in a dialog. */
function ScheduleDialog({ schedule, onDone }: { schedule?: Schedule; onDone: (message: string) => void }) {
  const t = useRecurringTexts();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const client = schedule?.client.name ?? '';
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant={schedule ? 'secondary' : 'primary'} aria-label={schedule ? t('editNamed', { client }) : undefined}>
        {schedule ? t('edit') : t('newSchedule')}
      </Button>
      <Dialog title={schedule ? t('editTitle', { client }) : t('newTitle')} wide>
        <ScheduleForm
          schedule={schedule}
          onSaved={(saved) => {
            setOpen(false);
            onDone(
              saved.next_run_date
                ? t('savedDone', { client: saved.client.name, date: format.day(saved.next_run_date) })
                : t('savedEnded', { client: saved.client.name }),
            );
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

function DeleteDialog({ schedule: s, onDone }: { schedule: Schedule; onDone: (message: string) => void }) {
  const t = useRecurringTexts();
  const [open, setOpen] = useState(false);
  const remove = useDeleteSchedule();
  const client = s.client.name;
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        remove.reset();
        setOpen(o);
      }}
    >
      <Button variant="danger" aria-label={t('removeNamed', { client })}>
        {t('remove')}
      </Button>
      <Dialog title={t('removeTitle', { client })}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{t('removeText')}</p>
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <Button
            variant="danger"
            isPending={remove.isPending}
            onPress={() =>
              remove.mutateAsync(s.id).then(
                () => {
                  setOpen(false);
                  onDone(t('removedDone', { client }));
                },
                () => undefined, // shown in the dialog
              )
            }
          >
            {t('removeConfirm')}
          </Button>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
