import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { taskAccess } from './access.ts';
import { tasksQuery, useCreateTask, useUpdateTask, type Task, type TaskChanges, type TaskCreate, type TaskList } from './api.ts';
import { apiQuery, filterOf, searchOf, type ListFilter, type Status } from './filters.ts';
import { useFormat } from '../../api/format.ts';
import { useTaskTexts } from './texts.ts';

type Access = ReturnType<typeof taskAccess>;

const STATUSES: Status[] = ['active', 'archived', 'all'];

const FIELDS = ['name', 'billable_by_default', 'default_hourly_rate', 'is_default'] as const;

/** /tasks: the workspace's task catalog, by name; those who may edit it add, change, archive and restore tasks. */
export function TasksPage() {
  const t = useTaskTexts();
  const { workspace } = useWorkspaceSession();
  const access = taskAccess(workspace);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = filterOf(params);
  const { data: list, error, isPlaceholderData } = useQuery(tasksQuery(apiQuery(filter)));
  const go = (next: ListFilter) => navigate(`/tasks${searchOf(next)}`);
  const [problem, setProblem] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading>{t('tasks')}</PageHeading>
        {access.writes && <TaskDialog access={access} />}
      </div>
      <p className="max-w-2xl text-sm text-stone-600">
        {access.writes ? t('intro') : t('introReadOnly')}
      </p>
      <Select
        label={t('show')}
        className="sm:max-w-xs"
        options={STATUSES.map((id) => ({ id, label: t(`status.${id}`) }))}
        selectedKey={filter.status}
        onSelectionChange={(key) => go({ status: key as Status, page: 1 })}
      />
      {error && !list && <Alert>{describeError(error).message}</Alert>}
      {problem && <Alert>{problem}</Alert>}
      {!list && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {list && (
        <section aria-labelledby="tasks-list" aria-busy={isPlaceholderData} className="flex flex-col gap-3">
          <h2 id="tasks-list" className="sr-only">
            {t(`status.${filter.status}`)}
          </h2>
          {list.tasks.length === 0 ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              <p>{filter.status === 'archived' ? t('noArchived') : t('noTasksYet')}</p>
            </div>
          ) : (
            <TaskTable list={list} access={access} onProblem={setProblem} />
          )}
          {list.total_pages > 1 && <Pager list={list} noun={t('pagerNoun')} onPage={(page) => go({ ...filter, page })} />}
        </section>
      )}
    </div>
  );
}

function TaskTable({ list, access, onProblem }: { list: TaskList; access: Access; onProblem: (p: string | null) => void }) {
  const t = useTaskTexts();
  // The rate column exists only when the API sent rates (it leaves them out for those who may not see them).
  const rates = access.seesRates && list.tasks.some((task) => 'default_hourly_rate' in task);
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{t('byName')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              {t('name')}
            </th>
            <th scope="col" className="px-3 py-2">
              {t('billable')}
            </th>
            {rates && (
              <th scope="col" className="px-3 py-2 text-right">
                {t('hourlyRate')}
              </th>
            )}
            <th scope="col" className="hidden px-3 py-2 sm:table-cell">
              {t('newProjects')}
            </th>
            {access.writes && (
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">{t('actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {list.tasks.map((task) => (
            <TaskRow key={task.id} task={task} rates={rates} access={access} onProblem={onProblem} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TaskRow({ task, rates, access, onProblem }: { task: Task; rates: boolean; access: Access; onProblem: (p: string | null) => void }) {
  const t = useTaskTexts();
  const format = useFormat();
  const update = useUpdateTask(task.id);
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-medium text-stone-900">
        {task.name}
        {!task.is_active && <span className="ml-2 rounded-sm bg-stone-100 px-1.5 py-0.5 text-xs font-normal text-stone-700">{t('archived')}</span>}
      </th>
      <td className="px-3 py-2.5 text-stone-700">{task.billable_by_default ? t('billable') : t('notBillable')}</td>
      {rates && <td className="px-3 py-2.5 text-right text-stone-700 tabular-nums">{task.default_hourly_rate == null ? '—' : format.number(task.default_hourly_rate, 2, 2)}</td>}
      <td className="hidden px-3 py-2.5 text-stone-700 sm:table-cell">{task.is_default ? t('addedByDefault') : '—'}</td>
      {access.writes && (
        <td className="px-3 py-1.5 text-right whitespace-nowrap">
          <TaskDialog access={access} task={task} />
          <Button
            variant="quiet"
            className="min-h-9 px-3"
            isPending={update.isPending}
            aria-label={t(task.is_active ? 'archiveNamed' : 'restoreNamed', { name: task.name })}
            onPress={() => {
              onProblem(null);
              update.mutate({ is_active: !task.is_active }, { onError: (e) => onProblem(t('problemNamed', { name: task.name, message: describeError(e).message })) });
            }}
          >
            {task.is_active ? t('archive') : t('restore')}
          </Button>
        </td>
      )}
    </tr>
  );
}

interface Values {
  name: string;
  billable_by_default: boolean;
  is_default: boolean;
  default_hourly_rate: number;
}

const valuesOf = (t?: Task): Values => ({
  name: t?.name ?? '',
  billable_by_default: t?.billable_by_default ?? true,
  is_default: t?.is_default ?? false,
  default_hourly_rate: t?.default_hourly_rate ?? NaN,
});

/** Add a task, or change one (only the changed fields are sent); the rate field only for those who may see rates. */
function TaskDialog({ access, task }: { access: Access; task?: Task }) {
  const t = useTaskTexts();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(() => valuesOf(task));
  const create = useCreateTask();
  const update = useUpdateTask(task?.id ?? '');
  const keyFor = useIdempotencyKey();
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;
  useEffect(() => {
    resetCreate();
    resetUpdate();
  }, [values, resetCreate, resetUpdate]);
  const { fieldErrors, summary } = formErrors(create.error ?? update.error, FIELDS);
  const set = <K extends keyof Values>(key: K) => (value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const rate = Number.isNaN(values.default_hourly_rate) ? null : values.default_hourly_rate;

  const submit = () => {
    const done = { onSuccess: () => setOpen(false) };
    if (!task) {
      const body: TaskCreate = { name: values.name, billable_by_default: values.billable_by_default, is_default: values.is_default };
      if (access.seesRates && rate !== null) body.default_hourly_rate = rate;
      create.mutate({ body, key: keyFor(body) }, done);
      return;
    }
    const changes: TaskChanges = {};
    if (values.name !== task.name) changes.name = values.name;
    if (values.billable_by_default !== task.billable_by_default) changes.billable_by_default = values.billable_by_default;
    if (values.is_default !== task.is_default) changes.is_default = values.is_default;
    if (access.seesRates && 'default_hourly_rate' in task && rate !== (task.default_hourly_rate ?? null)) changes.default_hourly_rate = rate;
    if (Object.keys(changes).length === 0) return setOpen(false);
    update.mutate(changes, done);
  };

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setValues(valuesOf(task));
      }}
    >
      {task ? (
        <Button variant="quiet" className="min-h-9 px-3" aria-label={t('editNamed', { name: task.name })}>
          {t('edit')}
        </Button>
      ) : (
        <Button>{t('newTask')}</Button>
      )}
      <Dialog title={task ? t('editNamed', { name: task.name }) : t('newTask')}>
        <Form
          validationErrors={fieldErrors}
          aria-label={task ? t('editTask') : t('newTask')}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {summary && <Alert>{summary}</Alert>}
          <TextField label={t('name')} name="name" value={values.name} onChange={set('name')} isRequired maxLength={255} autoFocus description={t('nameHint')} />
          <Checkbox name="billable_by_default" isSelected={values.billable_by_default} onChange={set('billable_by_default')}>
            {t('billableByDefault')}
          </Checkbox>
          <Checkbox name="is_default" isSelected={values.is_default} onChange={set('is_default')}>
            {t('addToEveryProject')}
          </Checkbox>
          {access.seesRates && (!task || 'default_hourly_rate' in task) && (
            <NumberField
              label={t('defaultRate')}
              name="default_hourly_rate"
              value={values.default_hourly_rate}
              onChange={set('default_hourly_rate')}
              minValue={0}
              formatOptions={{ minimumFractionDigits: 2, maximumFractionDigits: 2 }}
              description={t('defaultRateHint')}
            />
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              {t('cancel')}
            </Button>
            <Button type="submit" isPending={create.isPending || update.isPending}>
              {task ? t('save') : t('create')}
            </Button>
          </div>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}
