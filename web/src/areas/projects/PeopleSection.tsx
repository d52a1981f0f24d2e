import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger, useLocale } from 'react-aria-components';
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
import { formatMoney } from './format.ts';
import { RateDate } from './RateDate.tsx';
import { changedTermsBody, newTermsBody, termsRateChanged } from './values.ts';

const FIELDS = ['user_id', 'is_project_manager', 'budget', 'hourly_rate', 'hourly_rate_effective_from'];

/** The project's people (for its managers): who manages it, each person's rate and budget where shown; add, change, remove. */
export function PeopleSection({ project, choices }: { project: Project; choices: Choices }) {
  const { locale } = useLocale();
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
          People
        </h2>
        <PersonDialog project={project} choices={choices} available={choices.people.filter((p) => !assigned.has(p.id))} />
      </div>
      {list.error && <Alert>{describeError(list.error).message}</Alert>}
      {list.data && rows.length === 0 && <p className="text-sm text-stone-700">Nobody is assigned yet.</p>}
      {rows.length > 0 && (
        <div tabIndex={0} role="region" aria-label="People table" className={cx('relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs', focusRingCss)}>
          <table className="w-full min-w-[30rem] border-collapse text-sm">
            <caption className="sr-only">People on {project.name}</caption>
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">Person</th>
                <th scope="col" className="px-3 py-2">Role here</th>
                {showRate && <th scope="col" className="px-3 py-2 text-right">Hourly rate</th>}
                {showBudget && <th scope="col" className="px-3 py-2 text-right">Budget</th>}
                <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((u) => (
                <tr key={u.user_id} className={u.is_active ? '' : 'text-stone-500'}>
                  <th scope="row" className="px-3 py-2.5 text-left font-medium">
                    {u.user.name}
                    {!u.is_active && <span className="ml-2 text-xs font-normal">(inactive)</span>}
                  </th>
                  <td className="px-3 py-2.5">{u.is_project_manager ? 'Manager' : 'Member'}</td>
                  {showRate && <td className="px-3 py-2.5 text-right tabular-nums">{u.hourly_rate == null ? '' : formatMoney(u.hourly_rate, currency, locale)}</td>}
                  {showBudget && <td className="px-3 py-2.5 text-right tabular-nums">{u.budget == null ? '' : `${u.budget} h`}</td>}
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
      <Button variant={assignment ? 'quiet' : 'secondary'} aria-label={assignment ? `Edit ${assignment.user.name} on this project` : undefined}>
        {assignment ? 'Edit' : 'Add a person'}
      </Button>
      <Dialog title={assignment ? assignment.user.name : 'Add a person to the project'}>
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
              label="Person"
              name="user_id"
              placeholder="Choose a person"
              options={available.map((p) => ({ id: p.id, label: p.name }))}
              selectedKey={userId}
              onSelectionChange={(key) => setUserId(key === null ? null : String(key))}
              isRequired
            />
          )}
          {mayManage ? (
            <Checkbox isSelected={manager} onChange={setManager}>
              Manages this project
            </Checkbox>
          ) : (
            person && <p className="text-sm text-stone-600">Only people with the manager role can manage a project; owners and administrators manage every project.</p>
          )}
          {canRate && (
            <NumberField
              label="Hourly rate on this project"
              name="hourly_rate"
              value={rate}
              onChange={setRate}
              minValue={0}
              formatOptions={{ style: 'currency', currency: project.client.currency }}
              description={project.bill_by === 'people' ? undefined : "Prices time when the project bills by people's rates."}
            />
          )}
          {canRate && (assignment ? rateChanged : !Number.isNaN(rate)) && (
            <RateDate isNew={!assignment} value={from ?? (assignment ? choices.today : null)} onChange={setFrom} />
          )}
          {canBudget && (
            <NumberField
              label="Budget (hours)"
              name="budget"
              value={budget}
              onChange={setBudget}
              minValue={0}
              formatOptions={{ maximumFractionDigits: 2 }}
              description={project.budget_by === 'person' ? undefined : "Counts when the project's budget is by person."}
            />
          )}
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="secondary" slot="close">
              Cancel
            </Button>
            <Button type="submit" isPending={mutation.isPending}>
              {assignment ? 'Save' : 'Add person'}
            </Button>
          </div>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}

function RemoveButton({ project, assignment }: { project: Project; assignment: UserAssignment }) {
  const remove = useRemovePerson(project.id);
  return (
    <DialogTrigger onOpenChange={(open) => !open && remove.reset()}>
      <Button variant="quiet" className="text-red-800" aria-label={`Remove ${assignment.user.name} from this project`}>
        Remove
      </Button>
      <Dialog title={`Remove ${assignment.user.name}?`}>
        <div className="flex flex-col gap-4">
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <p className="text-sm text-stone-700">
            {assignment.user.name} no longer sees {project.name} or tracks time on it. Their recorded time and their rate history stay.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              Keep
            </Button>
            <Button variant="danger" isPending={remove.isPending} onPress={() => remove.mutate(assignment.user_id)}>
              Remove
            </Button>
          </div>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
