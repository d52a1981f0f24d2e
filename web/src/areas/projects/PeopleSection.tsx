import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { Select } from '../../ui/Select.tsx';
import { useAddPerson, useChangePerson, useRemovePerson, userAssignmentsQuery, type Choices, type Project, type UserAssignment } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useProjectTexts } from './texts.ts';
import { RateDate } from './RateDate.tsx';
import { changedTermsBody, newTermsBody, termsRateChanged } from './values.ts';

const FIELDS = ['user_id', 'is_project_manager', 'budget', 'hourly_rate', 'hourly_rate_effective_from'];

/** The project's people (for its managers): who manages it, each person's rate and budget where shown; add, change, remove. */
export function PeopleSection({ project, choices }: { project: Project; choices: Choices }) {
  const t = useProjectTexts();
  const format = useFormat();
  const list = useQuery(userAssignmentsQuery(project.id));
  const rows = list.data?.user_assignments ?? [];
  const showRate = rows.some((u) => u.hourly_rate !== undefined);
  const showBudget = rows.some((u) => u.budget !== undefined);
  const assigned = new Set(rows.map((u) => u.user_id));
  const currency = project.client.currency;
  return (
    <section aria-labelledby="people" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="people" className="text-lg font-semibold text-stone-900">
          {t('people.heading')}
        </h2>
        <PersonDialog project={project} choices={choices} available={choices.people.filter((p) => !assigned.has(p.id))} />
      </div>
      {list.error && <Alert>{describeError(list.error).message}</Alert>}
      {list.data && rows.length === 0 && <p className="text-sm text-stone-700">{t('people.none')}</p>}
      {rows.length > 0 && (
        <div tabIndex={0} role="region" aria-label={t('people.table')} className={cx('relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs', focusRingCss)}>
          <table data-stack className="w-full min-w-[30rem] border-collapse text-sm">
            <caption className="sr-only">{t('people.caption', { name: project.name })}</caption>
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('people.person')}</th>
                <th scope="col" className="px-3 py-2">{t('people.roleHere')}</th>
                {showRate && <th scope="col" className="px-3 py-2 text-right">{t('tasks.hourlyRate')}</th>}
                {showBudget && <th scope="col" className="px-3 py-2 text-right">{t('budget')}</th>}
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t('tasks.actions')}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((u) => (
                <tr key={u.user_id} className={u.is_active ? '' : 'text-stone-500'}>
                  <th scope="row" className="px-3 py-2.5 text-left font-medium">
                    {u.user.name}
                    {!u.is_active && <span className="ml-2 text-xs font-normal">{t('tasks.inactive')}</span>}
                  </th>
                  <td className="px-3 py-2.5">{u.is_project_manager ? t('people.manager') : t('people.member')}</td>
                  {showRate && <td className="px-3 py-2.5 text-right tabular-nums">{u.hourly_rate == null ? '' : format.money(u.hourly_rate, currency)}</td>}
                  {showBudget && <td className="px-3 py-2.5 text-right tabular-nums">{u.budget == null ? '' : t('hours', { hours: format.number(u.budget) })}</td>}
                  <td className="px-3 py-2.5 text-right whitespace-nowrap">
                    <PersonDialog project={project} choices={choices} assignment={u} available={[]} />
                    <RemoveButton project={project} assignment={u} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function PersonDialog({ project, choices, assignment, available }: { project: Project; choices: Choices; assignment?: UserAssignment; available: Choices['people'] }) {
  const t = useProjectTexts();
  const add = useAddPerson(project.id);
  const change = useChangePerson(project.id);
  const keyFor = useIdempotencyKey();
  const mutation = assignment ? change : add;
  const [open, setOpen] = useState(false);
  const [userId, setUserId] = useState<string | null>(null);
  const [manager, setManager] = useState(assignment?.is_project_manager ?? false);
  const [budget, setBudget] = useState(assignment?.budget ?? NaN);
  const [rate, setRate] = useState(assignment?.hourly_rate ?? NaN);
  const [from, setFrom] = useState<string | null>(null);
  const person = choices.people.find((p) => p.id === (assignment?.user_id ?? userId));
  const mayManage = person?.may_manage ?? false;
  const canRate = choices.may.see_rates;
  const canBudget = choices.may.set_commercial && (assignment ? assignment.budget !== undefined : true);
  const terms = { budget, rate, from };
  const can = { budget: canBudget, rate: canRate };
  const rateChanged = termsRateChanged(terms, assignment);
  const { fieldErrors, summary } = formErrors(mutation.error, FIELDS);

  const reset = () => {
    add.reset();
    change.reset();
    setUserId(null);
    setManager(assignment?.is_project_manager ?? false);
    setBudget(assignment?.budget ?? NaN);
    setRate(assignment?.hourly_rate ?? NaN);
    setFrom(null);
  };

  const submit = () => {
    const close = { onSuccess: () => setOpen(false) };
    if (!assignment) {
      if (!userId) return;
      const body = {
        user_id: userId,
        ...(mayManage ? { is_project_manager: manager } : {}),
        ...newTermsBody(terms, can),
      };
      add.mutate({ body, key: keyFor(body) }, close);
      return;
    }
    const body: Parameters<typeof change.mutate>[0]['body'] = changedTermsBody(terms, can, assignment, choices.today);
    if (mayManage && manager !== assignment.is_project_manager) body.is_project_manager = manager;
    if (Object.keys(body).length === 0) return setOpen(false);
    change.mutate({ userId: assignment.user_id, body }, close);
  };

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        if (next) reset();
        setOpen(next);
      }}
    >
      <Button variant={assignment ? 'quiet' : 'secondary'} aria-label={assignment ? t('people.editNamed', { name: assignment.user.name }) : undefined}>
        {assignment ? t('people.edit') : t('people.add')}
      </Button>
      <Dialog title={assignment ? assignment.user.name : t('people.addTitle')}>
        <Form
          validationErrors={fieldErrors}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {summary && <Alert>{summary}</Alert>}
          {!assignment && (
            <Select
              label={t('people.person')}
              name="user_id"
              placeholder={t('people.choose')}
              options={available.map((p) => ({ id: p.id, label: p.name }))}
              selectedKey={userId}
              onSelectionChange={(key) => setUserId(key === null ? null : String(key))}
              isRequired
            />
          )}
          {mayManage ? (
            <Checkbox isSelected={manager} onChange={setManager}>
              {t('people.manages')}
            </Checkbox>
          ) : (
            person && <p className="text-sm text-stone-600">{t('people.onlyManagers')}</p>
          )}
          {canRate && (
            <NumberField
              label={t('people.rate')}
              name="hourly_rate"
              value={rate}
              onChange={setRate}
              minValue={0}
              formatOptions={{ style: 'currency', currency: project.client.currency }}
              description={project.bill_by === 'people' ? undefined : t('people.rateHint')}
            />
          )}
          {canRate && (assignment ? rateChanged : !Number.isNaN(rate)) && (
            <RateDate isNew={!assignment} value={from ?? (assignment ? choices.today : null)} onChange={setFrom} />
          )}
          {canBudget && (
            <NumberField
              label={t('tasks.budgetHours')}
              name="budget"
              value={budget}
              onChange={setBudget}
              minValue={0}
              formatOptions={{ maximumFractionDigits: 2 }}
              description={project.budget_by === 'person' ? undefined : t('people.budgetHint')}
            />
          )}
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="secondary" slot="close">
              {t('cancel')}
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              {assignment ? t('people.save') : t('people.addPerson')}
            </Button>
          </div>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}

function RemoveButton({ project, assignment }: { project: Project; assignment: UserAssignment }) {
  const t = useProjectTexts();
  const remove = useRemovePerson(project.id);
  return (
    <DialogTrigger onOpenChange={(open) => !open && remove.reset()}>
      <Button variant="quiet" className="text-red-800" aria-label={t('people.removeNamed', { name: assignment.user.name })}>
        {t('people.remove')}
      </Button>
      <Dialog title={t('people.removeQuestion', { name: assignment.user.name })}>
        <div className="flex flex-col gap-4">
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <p className="text-sm text-stone-700">
            {t('people.removeExplained', { name: assignment.user.name, project: project.name })}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              {t('people.keep')}
            </Button>
            <Button variant="danger" isPending={remove.isPending} onPress={() => remove.mutate(assignment.user_id)}>
              {t('people.remove')}
            </Button>
          </div>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
