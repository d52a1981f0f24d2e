import type { CalendarDate } from '@internationalized/date';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { serverNow } from '../../api/server-clock.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { monthRange, pickerDate, yearRange } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import type { Format } from '../../ui/format.ts';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { capacityQuery, timeOffQuery, useCreateTimeOff, useDeleteTimeOff, useUpdateTimeOff, type Capacity, type TimeOff, type TimeOffKind } from './api.ts';
import { datesText, useLengthText, useTimeOffFormErrors, YearNav } from './parts.tsx';
import { hoursPerDay, inDateOrder, isHoliday, kindsFor, timeOffValues, yearOf } from './rules.ts';
import { useTimeOffTexts } from './texts.ts';

const FIELDS = ['kind', 'starts_on', 'ends_on', 'hours', 'name'] as const;

/**
 * Time off (/time-off?year=2026): the caller's own time off of a year with the workspace's
 * public holidays (read-only here; administrators keep them under Settings → Holidays &
 * breaks), added, changed and deleted in a dialog; and what is expected of them this month.
 */
export function TimeOffPage() {
  const { user, workspace } = useWorkspaceSession();
  const t = useTimeOffTexts();
  const format = useFormat();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const today = format.dayOf(serverNow());
  const year = yearOf(search, today);
  const list = useQuery(timeOffQuery(yearRange(year), user.id));
  const [done, setDone] = useState<string | null>(null);
  const admin = isAdministrator(workspace);
  const items = inDateOrder(list.data ?? []);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="max-w-2xl">
          <PageHeading>{t('page.heading')}</PageHeading>
          <p className="mt-2 text-sm text-stone-600">
            {t('page.intro')}
            {admin && (
              <>
                {' '}
                <Link href="/settings/holidays">{t('page.manageHolidays')}</Link>
              </>
            )}
          </p>
        </div>
        <TimeOffDialog administrator={admin} onDone={setDone} />
      </div>
      <MonthCapacity today={today} />
      {done && <Alert tone="success">{done}</Alert>}
      <YearNav path="/time-off" year={year} current={Number(today.slice(0, 4))} prefetch={(y) => void queryClient.prefetchQuery(timeOffQuery(yearRange(y), user.id))} />
      {list.isError ? (
        <Alert>{describeError(list.error).message}</Alert>
      ) : !list.data ? (
        <div className="h-32 animate-pulse rounded-lg border border-stone-200 bg-stone-50" aria-busy="true" />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 p-6 text-center text-sm text-stone-600">{t('page.none', { year })}</p>
      ) : (
        <div className="rounded-lg border border-stone-200 bg-white shadow-xs">
          <table data-stack className="w-full border-collapse text-sm">
            <caption className="sr-only">{t('page.inYear', { year })}</caption>
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('page.dates')}</th>
                <th scope="col" className="px-3 py-2">{t('page.kind')}</th>
                <th scope="col" className="px-3 py-2">{t('page.length')}</th>
                <th scope="col" className="px-3 py-2">{t('page.note')}</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t('page.actions')}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {items.map((item) => (
                <TimeOffRow key={item.id} item={item} administrator={admin} onDone={setDone} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function TimeOffRow({ item, administrator, onDone }: { item: TimeOff; administrator: boolean; onDone: (message: string) => void }) {
  const t = useTimeOffTexts();
  const format = useFormat();
  const lengthText = useLengthText();
  const remove = useDeleteTimeOff();
  const holiday = isHoliday(item);
  const kind = t(`kinds.${item.kind}`);
  const dates = datesText(format, item);
  return (
    <tr className={holiday ? 'bg-stone-50/70' : undefined}>
      <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap text-stone-900 tabular-nums">{dates}</th>
      <td className="px-3 py-2.5">
        {holiday ? (
          <span className="rounded-full bg-sky-50 px-2 py-0.5 text-xs font-medium text-sky-900 ring-1 ring-sky-700/20">{kind}</span>
        ) : (
          kind
        )}
      </td>
      <td className="px-3 py-2.5 text-stone-800">{lengthText(format, item)}</td>
      <td className="px-3 py-2.5 break-words text-stone-800">{item.name}</td>
      <td className="px-3 py-2.5">
        {holiday ? (
          <span className="block text-right text-xs text-stone-600">{t('page.workspaceHoliday')}</span>
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            <TimeOffDialog item={item} administrator={administrator} onDone={onDone} />
            <ConfirmButton
              label={t('delete')}
              ariaLabel={t('page.deleteNamed', { kind, dates })}
              title={t('page.deleteTitle')}
              text={t('page.deleteText', { kind, dates })}
              confirmLabel={t('page.deleteConfirm')}
              isPending={remove.isPending}
              errorMessage={remove.error ? describeError(remove.error).message : null}
              onOpenChange={() => remove.reset()}
              onConfirm={(close) =>
                remove.mutate(item.id, {
                  onSuccess: () => {
                    close();
                    onDone(t('page.deleted', { kind, dates }));
                  },
                })
              }
            />
          </div>
        )}
      </td>
    </tr>
  );
}

/** "Add time off", or "Edit" on one: the same form. */
function TimeOffDialog({ item, administrator, onDone }: { item?: TimeOff; administrator: boolean; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const t = useTimeOffTexts();
  const format = useFormat();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      {item ? (
        <Button variant="secondary" aria-label={t('page.editNamed', { kind: t(`kinds.${item.kind}`), dates: datesText(format, item) })}>
          {t('edit')}
        </Button>
      ) : (
        <Button>{t('page.add')}</Button>
      )}
      <Dialog title={item ? t('page.editTitle') : t('page.newTitle')}>
        <TimeOffForm
          item={item}
          administrator={administrator}
          onSaved={(message) => {
            setOpen(false);
            onDone(message);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

const dayOf = (d: CalendarDate | null) => (d ? d.toString() : null);

function TimeOffForm({ item, administrator, onSaved }: { item?: TimeOff; administrator: boolean; onSaved: (message: string) => void }) {
  const t = useTimeOffTexts();
  const format = useFormat();
  const create = useCreateTimeOff();
  const update = useUpdateTimeOff();
  const keyFor = useIdempotencyKey();
  const [kind, setKind] = useState<TimeOffKind>(item?.kind ?? 'vacation');
  const [startsOn, setStartsOn] = useState<CalendarDate | null>(pickerDate(item?.starts_on));
  const [endsOn, setEndsOn] = useState<CalendarDate | null>(pickerDate(item?.ends_on));
  const [whole, setWhole] = useState(item ? item.hours === null : true);
  const [hours, setHours] = useState(item?.hours != null ? format.number(item.hours, 2) : '');
  const [name, setName] = useState(item?.name ?? '');
  const mutation = item ? update : create;
  // A refusal is about the values sent: once one changes, its message goes.
  const { reset } = mutation;
  useEffect(() => reset(), [kind, startsOn, endsOn, whole, hours, name, reset]);
  const errorsOf = useTimeOffFormErrors(false);
  const { fieldErrors, summary } = errorsOf(mutation.error, FIELDS);
  const kinds = kindsFor(administrator);
  // An existing entry keeps its kind as a choice (a holiday recorded for the person by an administrator).
  const options = (kinds.includes(kind) ? kinds : [...kinds, kind]).map((k) => ({ id: k, label: t(`kinds.${k}`) }));
  const said = (v: { kind: TimeOffKind; starts_on: string; ends_on: string }) => ({ kind: t(`kinds.${v.kind}`), dates: datesText(format, v) });
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        const values = timeOffValues({ kind, starts_on: dayOf(startsOn), ends_on: dayOf(endsOn), whole, hours, name });
        if (!values) return;
        if (item) {
          update.mutate({ id: item.id, body: values }, { onSuccess: (saved) => onSaved(t('page.saved', said(saved))) });
        } else {
          create.mutate({ body: values, key: keyFor(values) }, { onSuccess: (saved) => onSaved(t('page.added', said(saved))) });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <Select label={t('page.kind')} name="kind" options={options} selectedKey={kind} onSelectionChange={(k) => k !== null && setKind(k as TimeOffKind)} />
      <div className="grid gap-5 sm:grid-cols-2">
        <DatePicker
          label={t('firstDay')}
          name="starts_on"
          value={startsOn}
          isRequired
          onChange={(d) => {
            setStartsOn(d);
            // The last day follows a first day moved past it.
            if (d && (!endsOn || endsOn.compare(d) < 0)) setEndsOn(d);
          }}
        />
        <DatePicker label={t('lastDay')} name="ends_on" value={endsOn} onChange={setEndsOn} />
      </div>
      <RadioGroup
        label={t('page.lengthField')}
        value={whole ? 'whole' : 'partial'}
        onChange={(v) => setWhole(v === 'whole')}
        options={[
          { id: 'whole', label: t('page.whole') },
          { id: 'partial', label: t('page.partial') },
        ]}
      />
      {!whole && (
        <TextField
          name="hours"
          label={t('page.hoursField')}
          description={t('page.hoursHint')}
          value={hours}
          onChange={setHours}
          isRequired
          inputMode="decimal"
          autoComplete="off"
          validate={(v) => {
            const h = hoursPerDay(v);
            return 'error' in h ? (h.error === 'empty' ? t('page.hoursEmpty') : t('page.hoursFormat')) : null;
          }}
        />
      )}
      <TextField name="name" label={t('page.noteField')} value={name} onChange={setName} maxLength={200} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {t('page.save')}
        </Button>
      </div>
    </Form>
  );
}

/** What is expected of the caller this month: their working hours less time off and holidays. */
function MonthCapacity({ today }: { today: string }) {
  const t = useTimeOffTexts();
  const format = useFormat();
  const range = monthRange(Number(today.slice(0, 4)), Number(today.slice(5, 7)));
  const capacity = useQuery(capacityQuery(range));
  if (!capacity.data) return null;
  const { days, total_hours } = capacity.data;
  return (
    <section aria-labelledby="capacity-month" className="rounded-lg border border-stone-200 bg-white p-4 text-sm shadow-xs">
      <h2 id="capacity-month" className="font-semibold text-stone-900">
        {t('page.month')} <span className="font-normal text-stone-600">· {format.dayRange(range.from, range.to)}</span>
      </h2>
      {!days || total_hours === null ? (
        <p className="mt-1 text-stone-600">{t('page.noPattern')}</p>
      ) : (
        <MonthFigures format={format} days={days} total={total_hours} />
      )}
    </section>
  );
}

function MonthFigures({ format, days, total }: { format: Format; days: NonNullable<Capacity['days']>; total: number }) {
  const t = useTimeOffTexts();
  const off = days.reduce((sum, d) => sum + d.off_hours, 0);
  const daysOff = days.filter((d) => d.whole_day_off && d.base_hours > 0).length;
  return (
    <dl className="mt-2 flex flex-wrap gap-x-8 gap-y-2">
      <div>
        <dt className="text-xs font-semibold text-stone-600 uppercase">{t('page.expected')}</dt>
        <dd className="mt-0.5 text-lg font-semibold text-stone-900 tabular-nums">{format.hours(total)}</dd>
      </div>
      <div>
        <dt className="text-xs font-semibold text-stone-600 uppercase">{t('page.off')}</dt>
        <dd className="mt-0.5 text-lg font-semibold text-stone-900 tabular-nums">
          {format.hours(off)}
          {daysOff > 0 && <span className="ml-2 text-sm font-normal text-stone-600">{t('page.daysOff', { count: daysOff })}</span>}
        </dd>
      </div>
    </dl>
  );
}
