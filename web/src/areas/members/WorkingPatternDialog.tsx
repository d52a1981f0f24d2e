import type { CalendarDate } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { serverNow } from '../../api/server-clock.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { pickerDate } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { fullName, useCreateWorkingPattern, useDeleteWorkingPattern, useUpdateWorkingPattern, workingPatternsQuery, type Member, type WorkingPattern } from './api.ts';
import { dayHours, hoursOf, STANDARD_WEEK, WEEKDAYS, weekHours, weeklyTotal, type Weekday, type WeekHours } from './patterns.ts';
import { useMemberTexts } from './texts.ts';

const FIELDS = ['effective_from', ...WEEKDAYS];

/**
 * "Working pattern" on a member of Settings → Members (owners and administrators): the
 * person's patterns by their first day, each with its hours per weekday and the week's
 * total; a pattern added, changed or deleted in the same dialog.
 */
export function WorkingPatternDialog({ member }: { member: Member }) {
  const [open, setOpen] = useState(false);
  const t = useMemberTexts();
  const label = t('patterns.openNamed', { name: fullName(member) });
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary" aria-label={label}>
        {t('patterns.open')}
      </Button>
      <Dialog title={label} wide>
        <WorkingPatterns member={member} />
      </Dialog>
    </DialogTrigger>
  );
}

function WorkingPatterns({ member }: { member: Member }) {
  const t = useMemberTexts();
  const format = useFormat();
  const list = useQuery(workingPatternsQuery(member.id));
  const [editing, setEditing] = useState<WorkingPattern | null>(null);
  const remove = useDeleteWorkingPattern();
  const name = fullName(member);
  return (
    <div className="flex flex-col gap-5 text-sm">
      <p className="text-stone-600">{t('patterns.intro')}</p>
      {list.isError ? (
        <Alert>{describeError(list.error).message}</Alert>
      ) : !list.data ? (
        <div className="h-20 animate-pulse rounded-md bg-stone-50" aria-busy="true" />
      ) : list.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-stone-300 p-4 text-stone-700">
          {t('patterns.none')}{' '}
          {member.expected_weekly_hours ? t('patterns.fallbackWeekly', { hours: format.number(Number(member.expected_weekly_hours), 2) }) : t('patterns.fallbackNone')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-stone-200">
          <table data-stack className="w-full border-collapse text-sm">
            <caption className="sr-only">{t('patterns.list', { name })}</caption>
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('patterns.from')}</th>
                {WEEKDAYS.map((d) => (
                  <th key={d} scope="col" className="px-2 py-2 text-right">
                    <abbr title={t(`patterns.weekdays.${d}`)} className="no-underline">
                      {t(`patterns.short.${d}`)}
                    </abbr>
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-right">{t('patterns.week')}</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t('patterns.actions')}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {list.data.map((p) => {
                const date = format.day(p.effective_from);
                return (
                  <tr key={p.id} className={editing?.id === p.id ? 'bg-teal-50/60' : undefined}>
                    <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-stone-900 tabular-nums">{date}</th>
                    {WEEKDAYS.map((d) => (
                      <td key={d} className="px-2 py-2 text-right text-stone-800 tabular-nums">{format.hours(p[d])}</td>
                    ))}
                    <td className="px-3 py-2 text-right font-semibold text-stone-900 tabular-nums">{format.hours(p.weekly_hours)}</td>
                    <td className="px-3 py-2">
                      <div className="flex justify-end gap-2">
                        <Button variant="secondary" aria-label={t('patterns.editNamed', { date })} onPress={() => setEditing(p)}>
                          {t('patterns.edit')}
                        </Button>
                        <ConfirmButton
                          label={t('patterns.delete')}
                          ariaLabel={t('patterns.deleteNamed', { date })}
                          title={t('patterns.deleteTitle')}
                          text={t('patterns.deleteText', { date })}
                          confirmLabel={t('patterns.deleteConfirm')}
                          isPending={remove.isPending}
                          errorMessage={remove.error ? describeError(remove.error).message : null}
                          onOpenChange={() => remove.reset()}
                          onConfirm={(close) =>
                            remove.mutate(p.id, {
                              onSuccess: () => {
                                close();
                                if (editing?.id === p.id) setEditing(null);
                              },
                            })
                          }
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {/* Keyed: choosing another pattern (or none) starts its form afresh. */}
      <PatternForm key={editing?.id ?? 'new'} userId={member.id} pattern={editing} onDone={() => setEditing(null)} />
    </div>
  );
}

const typedOf = (hours: WeekHours, format: ReturnType<typeof useFormat>) =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, hours[d] === 0 ? '0' : format.number(hours[d], 2)])) as Record<Weekday, string>;

function PatternForm({ userId, pattern, onDone }: { userId: string; pattern: WorkingPattern | null; onDone: () => void }) {
  const t = useMemberTexts();
  const format = useFormat();
  const create = useCreateWorkingPattern();
  const update = useUpdateWorkingPattern();
  const keyFor = useIdempotencyKey();
  const [from, setFrom] = useState<CalendarDate | null>(() => pickerDate(pattern?.effective_from ?? format.dayOf(serverNow())));
  const [typed, setTyped] = useState<Record<Weekday, string>>(() => typedOf(pattern ? hoursOf(pattern) : STANDARD_WEEK, format));
  const mutation = pattern ? update : create;
  const { reset } = mutation;
  useEffect(() => reset(), [from, typed, reset]);
  const { fieldErrors, summary } = formErrors(mutation.error, FIELDS);
  const total = weeklyTotal(Object.fromEntries(WEEKDAYS.map((d) => [d, dayHours(typed[d])])));
  const title = pattern ? t('patterns.change', { date: format.day(pattern.effective_from) }) : t('patterns.add');
  return (
    <section aria-labelledby="pattern-form-title" className="flex flex-col gap-4 border-t border-stone-200 pt-5">
      <h3 id="pattern-form-title" className="text-sm font-semibold text-stone-900">
        {title}
      </h3>
      <Form
        validationErrors={fieldErrors}
        onSubmit={(event) => {
          event.preventDefault();
          if (mutation.isPending || !from) return;
          const week = weekHours(typed);
          if ('invalid' in week) return;
          if (pattern) {
            update.mutate({ id: pattern.id, body: { effective_from: from.toString(), ...week.hours } }, { onSuccess: onDone });
          } else {
            const body = { user_id: userId, effective_from: from.toString(), ...week.hours };
            create.mutate({ body, key: keyFor(body) }, { onSuccess: onDone });
          }
        }}
      >
        {summary && <Alert>{summary}</Alert>}
        <div className="max-w-xs">
          <DatePicker label={t('patterns.appliesFrom')} name="effective_from" value={from} onChange={setFrom} isRequired />
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm text-stone-600">{t('patterns.hoursHint')}</p>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
            {WEEKDAYS.map((d) => (
              <TextField
                key={d}
                name={d}
                label={t(`patterns.weekdays.${d}`)}
                value={typed[d]}
                onChange={(v) => setTyped((was) => ({ ...was, [d]: v }))}
                inputMode="decimal"
                autoComplete="off"
                validate={(v) => (dayHours(v) === null ? t('patterns.hoursProblem') : null)}
              />
            ))}
          </div>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm font-semibold text-stone-900 tabular-nums" aria-live="polite">
            {t('patterns.total', { hours: format.hours(total) })}
          </p>
          <div className="flex gap-2">
            {pattern && (
              <Button variant="secondary" onPress={onDone}>
                {t('patterns.cancelEdit')}
              </Button>
            )}
            <Button type="submit" isPending={mutation.isPending}>
              {pattern ? t('patterns.save') : t('patterns.addButton')}
            </Button>
          </div>
        </div>
      </Form>
    </section>
  );
}
