import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { Select } from '../../ui/Select.tsx';
import { taskAssignmentsQuery, useAddTask, useChangeTask, type Choices, type Project, type TaskAssignment } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useProjectTexts } from './texts.ts';
import { RateDate } from './RateDate.tsx';
import { changedTermsBody, newTermsBody, termsRateChanged } from './values.ts';

const FIELDS = ['task_id', 'billable', 'budget', 'hourly_rate', 'hourly_rate_effective_from'];

/** Money budgets (task_fees) are in the project's currency; every other budget is hours. */
const budgetIsMoney = (project: Project) => project.budget_by === 'task_fees';

/** The project's tasks: billable or not, budget and rate where the server shows them; add, change, deactivate. */
export function TasksSection({ project, choices }: { project: Project; choices: Choices }) {
  const t = useProjectTexts();
  const format = useFormat();
  const list = useQuery(taskAssignmentsQuery(project.id));
  const rows = list.data?.task_assignments ?? [];
  const showBudget = rows.some((a) => a.budget !== undefined);
  const showRate = rows.some((a) => a.hourly_rate !== undefined);
  const may = choices.may.edit_tasks && project.is_active;
  const currency = project.client.currency;
  const assigned = new Set(rows.map((a) => a.task_id));
  return (
    <section aria-labelledby="tasks" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="tasks" className="text-lg font-semibold text-stone-900">
          {t('tasks.heading')}
        </h2>
        {may && <TaskDialog project={project} choices={choices} available={choices.tasks.filter((task) => !assigned.has(task.id))} />}
      </div>
      {list.error && <Alert>{describeError(list.error).message}</Alert>}
      {list.data && rows.length === 0 && <p className="text-sm text-stone-700">{t('tasks.none')}</p>}
      {rows.length > 0 && (
        <div tabIndex={0} role="region" aria-label={t('tasks.table')} className={cx('relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs', focusRingCss)}>
          <table data-stack className="w-full min-w-[30rem] border-collapse text-sm">
            <caption className="sr-only">{t('tasks.caption', { name: project.name })}</caption>
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('tasks.task')}</th>
                <th scope="col" className="px-3 py-2">{t('tasks.billable')}</th>
                {showBudget && <th scope="col" className="px-3 py-2 text-right">{t('budget')}</th>}
                {showRate && <th scope="col" className="px-3 py-2 text-right">{t('tasks.hourlyRate')}</th>}
                {may && <th scope="col" className="px-3 py-2"><span className="sr-only">{t('tasks.actions')}</span></th>}
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((a) => (
                <tr key={a.task_id} className={a.is_active ? '' : 'text-stone-500'}>
                  <th scope="row" className="px-3 py-2.5 text-left font-medium">
                    {a.task.name}
                    {!a.is_active && <span className="ml-2 text-xs font-normal">{t('tasks.inactive')}</span>}
                  </th>
                  <td className="px-3 py-2.5">{a.billable ? t('page.yes') : t('page.no')}</td>
                  {showBudget && (
                    <td className="px-3 py-2.5 text-right tabular-nums">
                      {a.budget == null ? '' : budgetIsMoney(project) ? format.money(a.budget, currency) : t('hours', { hours: format.number(a.budget) })}
                    </td>
                  )}
                  {showRate && <td className="px-3 py-2.5 text-right tabular-nums">{a.hourly_rate == null ? '' : format.money(a.hourly_rate, currency)}</td>}
                  {may && (
                    <td className="px-3 py-2.5 text-right whitespace-nowrap">
                      <TaskDialog project={project} choices={choices} assignment={a} available={[]} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Adds a task (no `assignment`) or changes one: billable, budget, rate from a date, active. */
function TaskDialog({ project, choices, assignment, available }: { project: Project; choices: Choices; assignment?: TaskAssignment; available: Choices['tasks'] }) {
  const t = useProjectTexts();
  const add = useAddTask(project.id);
  const change = useChangeTask(project.id);
  const mutation = assignment ? change : add;
  const [open, setOpen] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [billable, setBillable] = useState(assignment?.billable ?? true);
  const [budget, setBudget] = useState(assignment?.budget ?? NaN);
  const [rate, setRate] = useState(assignment?.hourly_rate ?? NaN);
  const [from, setFrom] = useState<string | null>(null);
  const canBudget = assignment ? assignment.budget !== undefined : choices.may.set_commercial;
  const canRate = choices.may.see_rates;
  const terms = { budget, rate, from };
  const can = { budget: canBudget, rate: canRate };
  const rateChanged = termsRateChanged(terms, assignment);
  const { fieldErrors, summary } = formErrors(mutation.error, FIELDS);
  const name = assignment?.task.name;

  const reset = () => {
    add.reset();
    change.reset();
    setTaskId(null);
    setBillable(assignment?.billable ?? true);
    setBudget(assignment?.budget ?? NaN);
    setRate(assignment?.hourly_rate ?? NaN);
    setFrom(null);
  };

  const submit = () => {
    const close = { onSuccess: () => setOpen(false) };
    if (!assignment) {
      if (!taskId) return;
      add.mutate(
        {
          task_id: taskId,
          billable,
          ...newTermsBody(terms, can),
        },
        close,
      );
      return;
    }
    const body: Parameters<typeof change.mutate>[0]['body'] = changedTermsBody(terms, can, assignment, choices.today);
    if (billable !== assignment.billable) body.billable = billable;
    if (Object.keys(body).length === 0) return setOpen(false);
    change.mutate({ taskId: assignment.task_id, body }, close);
  };

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        if (next) reset();
        setOpen(next);
      }}
    >
      <Button variant={assignment ? 'quiet' : 'secondary'} aria-label={assignment ? t('tasks.editNamed', { name }) : undefined}>
        {assignment ? t('tasks.edit') : t('tasks.add')}
      </Button>
      <Dialog title={assignment ? t('tasks.titleNamed', { name }) : t('tasks.addTitle')}>
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
              label={t('tasks.task')}
              name="task_id"
              placeholder={t('tasks.choose')}
              options={available.map((task) => ({ id: task.id, label: task.name }))}
              selectedKey={taskId}
              onSelectionChange={(key) => {
                setTaskId(key === null ? null : String(key));
                setBillable(available.find((task) => task.id === key)?.billable_by_default ?? true);
              }}
              isRequired
            />
          )}
          <Checkbox isSelected={billable} onChange={setBillable}>
            {t('tasks.billableHere')}
          </Checkbox>
          {canBudget && (
            <NumberField
              label={budgetIsMoney(project) ? t('tasks.budgetFees') : t('tasks.budgetHours')}
              name="budget"
              value={budget}
              onChange={setBudget}
              minValue={0}
              formatOptions={budgetIsMoney(project) ? { style: 'currency', currency: project.client.currency } : { maximumFractionDigits: 2 }}
              description={project.budget_by === 'task' || project.budget_by === 'task_fees' ? undefined : t('tasks.budgetHint')}
            />
          )}
          {canRate && (
            <NumberField
              label={t('tasks.hourlyRate')}
              name="hourly_rate"
              value={rate}
              onChange={setRate}
              minValue={0}
              formatOptions={{ style: 'currency', currency: project.client.currency }}
              description={project.bill_by === 'tasks' ? undefined : t('tasks.rateHint')}
            />
          )}
          {canRate && (assignment ? rateChanged : !Number.isNaN(rate)) && (
            <RateDate isNew={!assignment} value={from ?? (assignment ? choices.today : null)} onChange={setFrom} />
          )}
          <div className="flex flex-wrap justify-between gap-2 pt-2">
            {assignment && (
              <Button
                variant="quiet"
                isPending={change.isPending}
                onPress={() => change.mutate({ taskId: assignment.task_id, body: { is_active: !assignment.is_active } }, { onSuccess: () => setOpen(false) })}
              >
                {assignment.is_active ? t('tasks.deactivate') : t('tasks.reactivate')}
              </Button>
            )}
            <span className="ml-auto flex gap-2">
              <Button variant="secondary" slot="close">
                {t('cancel')}
              </Button>
              <Button type="submit" isPending={mutation.isPending}>
                {assignment ? t('tasks.save') : t('tasks.addTask')}
              </Button>
            </span>
          </div>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}
