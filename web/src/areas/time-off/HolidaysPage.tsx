import type { CalendarDate } from '@internationalized/date';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { DialogTrigger, Input, NumberField as AriaNumberField } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { serverNow } from '../../api/server-clock.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { pickerDate, yearRange } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import type { Format } from '../../ui/format.ts';
import { Form } from '../../ui/Form.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { cx, fieldDescription, fieldLabel, focusRingCss, inputBox } from '../../ui/styles.ts';
import { TextField } from '../../ui/TextField.tsx';
import { breakRulesQuery, timeOffQuery, useCreateTimeOff, useDeleteTimeOff, useImportHolidays, useSetBreakRules, useUpdateTimeOff, type StoredBreakRule, type TimeOff } from './api.ts';
import { datesText, useTimeOffFormErrors, YearNav } from './parts.tsx';
import { breakRulesOf, daysIn, GERMAN_LAW, holidayHours, holidayValues, inDateOrder, isHoliday, ruleRow, ruleRows, yearOf, type RuleProblem, type RuleRow } from './rules.ts';
import { useTimeOffTexts } from './texts.ts';

/**
 * Settings → Holidays & breaks (/settings/holidays?year=2026, owners and administrators; the
 * route guard tells anyone else it is not for their role): the workspace's public holidays
 * of a year (whole days, or some hours of each day: a half day), added one by one or imported
 * from an iCalendar file, changed and deleted; and the break rules the approval check applies.
 */
export function HolidaysPage() {
  const { user } = useWorkspaceSession();
  const t = useTimeOffTexts();
  const format = useFormat();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const today = format.dayOf(serverNow());
  const year = yearOf(search, today);
  const list = useQuery(timeOffQuery(yearRange(year), user.id));
  const [done, setDone] = useState<string | null>(null);
  const holidays = inDateOrder((list.data ?? []).filter(isHoliday));
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <PageHeading>{t('holidays.heading')}</PageHeading>
        <p className="mt-2 text-sm text-stone-600">{t('holidays.intro')}</p>
      </div>
      <SettingsSection id="section-holidays" title={t('holidays.section')} description={t('holidays.sectionHint')}>
        <div className="flex flex-col gap-5">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <YearNav path="/settings/holidays" year={year} current={Number(today.slice(0, 4))} prefetch={(y) => void queryClient.prefetchQuery(timeOffQuery(yearRange(y), user.id))} />
            <HolidayDialog onDone={setDone} />
          </div>
          {done && <Alert tone="success">{done}</Alert>}
          {list.isError ? (
            <Alert>{describeError(list.error).message}</Alert>
          ) : !list.data ? (
            <div className="h-24 animate-pulse rounded-md bg-stone-50" aria-busy="true" />
          ) : holidays.length === 0 ? (
            <p className="text-sm text-stone-600">{t('holidays.none', { year })}</p>
          ) : (
            <div className="rounded-md border border-stone-200">
              <table data-stack className="w-full border-collapse text-sm">
                <caption className="sr-only">{t('holidays.inYear', { year })}</caption>
                <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
                  <tr>
                    <th scope="col" className="px-3 py-2">{t('holidays.date')}</th>
                    <th scope="col" className="px-3 py-2">{t('holidays.name')}</th>
                    <th scope="col" className="px-3 py-2">{t('holidays.length')}</th>
                    <th scope="col" className="px-3 py-2"><span className="sr-only">{t('holidays.actions')}</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-stone-100">
                  {holidays.map((h) => (
                    <HolidayRow key={h.id} holiday={h} onDone={setDone} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ImportHolidays year={year} />
        </div>
      </SettingsSection>
      <SettingsSection id="section-breaks" title={t('breaks.section')} description={t('breaks.sectionHint')}>
        <BreakRules />
      </SettingsSection>
    </div>
  );
}

/** The hours of a holiday's days in the person's number format: "4 h" (each day's, when it spans several), or the whole day. */
function useHolidayLength() {
  const t = useTimeOffTexts();
  return (format: Format, h: Pick<TimeOff, 'starts_on' | 'ends_on' | 'hours'>) => {
    const days = daysIn(h);
    if (h.hours === null) return t('page.wholeDay', { count: days });
    const hours = format.number(h.hours, 2);
    return days === 1 ? t('holidays.hours', { hours }) : t('page.perDay', { hours });
  };
}

function HolidayRow({ holiday: h, onDone }: { holiday: TimeOff; onDone: (message: string) => void }) {
  const t = useTimeOffTexts();
  const format = useFormat();
  const length = useHolidayLength();
  const remove = useDeleteTimeOff();
  const dates = datesText(format, h);
  const name = h.name ?? t('kinds.public_holiday');
  return (
    <tr>
      <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap text-stone-900 tabular-nums">{dates}</th>
      <td className="px-3 py-2.5 break-words text-stone-800">{name}</td>
      <td className="px-3 py-2.5 whitespace-nowrap text-stone-800 tabular-nums">{length(format, h)}</td>
      <td className="px-3 py-2.5">
        <div className="flex flex-wrap justify-end gap-2">
          <HolidayDialog holiday={h} onDone={onDone} />
          <ConfirmButton
            label={t('delete')}
            ariaLabel={t('holidays.deleteNamed', { name, dates })}
            title={t('holidays.deleteTitle')}
            text={t('holidays.deleteText', { name, dates })}
            confirmLabel={t('holidays.deleteConfirm')}
            isPending={remove.isPending}
            errorMessage={remove.error ? describeError(remove.error).message : null}
            onOpenChange={() => remove.reset()}
            onConfirm={(close) =>
              remove.mutate(h.id, {
                onSuccess: () => {
                  close();
                  onDone(t('holidays.deleted', { name }));
                },
              })
            }
          />
        </div>
      </td>
    </tr>
  );
}

/** "Add holiday", or "Edit" on one: the same form. */
function HolidayDialog({ holiday, onDone }: { holiday?: TimeOff; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const t = useTimeOffTexts();
  const format = useFormat();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      {holiday ? (
        <Button variant="secondary" aria-label={t('holidays.editNamed', { name: holiday.name ?? t('kinds.public_holiday'), dates: datesText(format, holiday) })}>
          {t('edit')}
        </Button>
      ) : (
        <Button>{t('holidays.add')}</Button>
      )}
      <Dialog title={holiday ? t('holidays.editTitle') : t('holidays.newTitle')}>
        <HolidayForm
          holiday={holiday}
          onSaved={(message) => {
            setOpen(false);
            onDone(message);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

const HOLIDAY_FIELDS = ['name', 'starts_on', 'ends_on', 'hours'] as const;

function HolidayForm({ holiday, onSaved }: { holiday?: TimeOff; onSaved: (message: string) => void }) {
  const t = useTimeOffTexts();
  const format = useFormat();
  const create = useCreateTimeOff();
  const update = useUpdateTimeOff();
  const keyFor = useIdempotencyKey();
  // The stored hours as the time off form shows them (4, 3,5); sent back as stored while untouched.
  const [kept] = useState(() => ({ text: holiday?.hours != null ? format.number(holiday.hours, 2) : '', hours: holiday?.hours ?? null }));
  const [name, setName] = useState(holiday?.name ?? '');
  const [startsOn, setStartsOn] = useState<CalendarDate | null>(pickerDate(holiday?.starts_on));
  const [endsOn, setEndsOn] = useState<CalendarDate | null>(pickerDate(holiday?.ends_on));
  const [hours, setHours] = useState(kept.text);
  const mutation = holiday ? update : create;
  // A refusal is about the values sent: once one changes, its message goes.
  const { reset } = mutation;
  useEffect(() => reset(), [name, startsOn, endsOn, hours, reset]);
  const errorsOf = useTimeOffFormErrors(true);
  const { fieldErrors, summary } = errorsOf(mutation.error, HOLIDAY_FIELDS);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        const values = holidayValues({ name, starts_on: startsOn?.toString() ?? null, ends_on: endsOn?.toString() ?? null, hours }, kept);
        if (!values) return;
        if (holiday) {
          update.mutate({ id: holiday.id, body: values }, { onSuccess: (saved) => onSaved(t('holidays.saved', { name: saved.name ?? values.name })) });
        } else {
          const body = { user_id: null, kind: 'public_holiday' as const, ...values };
          create.mutate({ body, key: keyFor(body) }, { onSuccess: (saved) => onSaved(t('holidays.added', { name: saved.name ?? body.name })) });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label={t('holidays.name')} description={t('holidays.nameHint')} value={name} onChange={setName} isRequired maxLength={200} autoFocus />
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
      <TextField
        name="hours"
        label={t('holidays.hoursField')}
        description={t('holidays.hoursHint')}
        value={hours}
        onChange={setHours}
        inputMode="decimal"
        autoComplete="off"
        validate={(v) => {
          const h = holidayHours(v);
          return 'error' in h ? (h.error === 'empty' ? t('holidays.hoursZero') : t('page.hoursFormat')) : null;
        }}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {t('holidays.save')}
        </Button>
      </div>
    </Form>
  );
}

/** "Import from iCalendar file": the file is read as text here and sent with the year shown. */
function ImportHolidays({ year }: { year: number }) {
  const t = useTimeOffTexts();
  const importing = useImportHolidays();
  const [file, setFile] = useState<File | null>(null);
  const [noFile, setNoFile] = useState(false);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 border-t border-stone-200 pt-5">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-stone-900">
        {t('holidays.importTitle')}
      </h3>
      <p id={`${id}-hint`} className={fieldDescription}>
        {t('holidays.importHint', { year })}
      </p>
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          if (importing.isPending) return;
          if (!file) {
            setNoFile(true);
            return;
          }
          void file.text().then((calendar) => importing.mutate({ calendar, year }));
        }}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-file`} className={fieldLabel}>
            {t('holidays.file')}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".ics,text/calendar"
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setNoFile(false);
              importing.reset();
            }}
            className={cx(
              'block w-full min-w-0 text-sm text-stone-700',
              'file:mr-3 file:rounded-md file:border file:border-solid file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-stone-800 hover:file:bg-stone-50',
              focusRingCss,
            )}
          />
        </div>
        <Button type="submit" variant="secondary" isPending={importing.isPending}>
          {t('holidays.import', { year })}
        </Button>
      </form>
      {noFile && <Alert>{t('holidays.chooseFile')}</Alert>}
      {importing.error && <Alert>{describeError(importing.error).message}</Alert>}
      {importing.data && <Alert tone="success">{t('holidays.result', importing.data)}</Alert>}
    </section>
  );
}

function BreakRules() {
  const stored = useQuery(breakRulesQuery);
  if (stored.isError) return <Alert>{describeError(stored.error).message}</Alert>;
  if (!stored.data) return <div className="h-24 animate-pulse rounded-md bg-stone-50" aria-busy="true" />;
  return <BreakRulesForm stored={stored.data} />;
}

function BreakRulesForm({ stored }: { stored: StoredBreakRule[] }) {
  const t = useTimeOffTexts();
  const save = useSetBreakRules();
  const [rows, setRows] = useState<RuleRow[]>(() => ruleRows(stored));
  const [problem, setProblem] = useState<{ problem: RuleProblem; index: number } | null>(null);
  const [saved, setSaved] = useState(false);
  const edit = (next: RuleRow[]) => {
    setRows(next);
    setProblem(null);
    setSaved(false);
    save.reset();
  };
  const change = (key: number, part: Partial<RuleRow>) => edit(rows.map((r) => (r.key === key ? { ...r, ...part } : r)));
  const { summary } = formErrors(save.error, []);
  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        if (save.isPending) return;
        const made = breakRulesOf(rows);
        if ('problem' in made) {
          setProblem(made);
          return;
        }
        save.mutate(made.rules, {
          onSuccess: (rules) => {
            setRows(ruleRows(rules));
            setSaved(true);
          },
        });
      }}
    >
      {rows.length === 0 ? (
        <p className="text-sm text-stone-600">{t('breaks.none')}</p>
      ) : (
        <ul aria-label={t('breaks.section')} className="flex flex-col gap-3">
          {rows.map((r, i) => (
            <li key={r.key}>
              <div role="group" aria-label={t('breaks.rule', { number: i + 1 })} className="flex flex-wrap items-center gap-x-2 gap-y-2 text-sm text-stone-800">
                <span>{t('breaks.moreThan')}</span>
                <AriaNumberField
                  aria-label={t('breaks.hoursOf', { number: i + 1 })}
                  value={r.after_hours}
                  onChange={(v) => change(r.key, { after_hours: v })}
                  minValue={0}
                  maxValue={24}
                  formatOptions={{ maximumFractionDigits: 2 }}
                  isInvalid={problem?.index === i && problem.problem !== 'minutes'}
                  className="w-20"
                >
                  <Input className={cx(inputBox, 'text-right tabular-nums data-invalid:border-red-600')} />
                </AriaNumberField>
                <span>{t('breaks.hoursADay')}</span>
                <AriaNumberField
                  aria-label={t('breaks.minutesOf', { number: i + 1 })}
                  value={r.break_minutes}
                  onChange={(v) => change(r.key, { break_minutes: v })}
                  minValue={1}
                  maxValue={600}
                  formatOptions={{ maximumFractionDigits: 0 }}
                  isInvalid={problem?.index === i && problem.problem === 'minutes'}
                  className="w-20"
                >
                  <Input className={cx(inputBox, 'text-right tabular-nums data-invalid:border-red-600')} />
                </AriaNumberField>
                <span>{t('breaks.minutesOfBreak')}</span>
                <Button variant="quiet" aria-label={t('breaks.removeNamed', { number: i + 1 })} onPress={() => edit(rows.filter((x) => x.key !== r.key))}>
                  {t('breaks.remove')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onPress={() => edit([...rows, ruleRow({ after_hours: NaN, break_minutes: 30 })])}>
            {t('breaks.add')}
          </Button>
          <Button variant="secondary" onPress={() => edit(GERMAN_LAW.map(ruleRow))}>
            {t('breaks.germanLaw')}
          </Button>
        </div>
        <p className={fieldDescription}>{t('breaks.germanLawHint')}</p>
      </div>
      {problem && <Alert>{t(`breaks.problems.${problem.problem}`, { number: problem.index + 1 })}</Alert>}
      {summary && <Alert>{summary}</Alert>}
      {saved && <Alert tone="success">{t('breaks.saved')}</Alert>}
      <div>
        <Button type="submit" isPending={save.isPending}>
          {t('breaks.save')}
        </Button>
      </div>
    </Form>
  );
}
