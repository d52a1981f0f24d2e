import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { permissionLabel, roleLabel, type PermissionId, type RoleId } from '../../api/roles.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { fullName, membersQuery, useCreateAgent, useUpdateMember, type Member, type MemberPatch } from './api.ts';
import { accessBody, RoleFields, type Access } from './RoleFields.tsx';

/** Settings → Members: everyone in the workspace, people and agents; edit access, teammates, hours, deactivate. */
export function MembersPage() {
  const list = useQuery(membersQuery);
  const members = list.data?.members ?? [];
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>Members</PageHeading>
          <p className="mt-2 text-sm text-stone-600">Changes apply from each person’s next request. Agents use keys only and never sign in.</p>
        </div>
        <AgentDialog />
      </div>
      {list.isError ? (
        <Alert>{describeError(list.error).message}</Alert>
      ) : !list.data ? (
        <div aria-busy="true" className="h-64 animate-pulse rounded-lg border border-stone-200 bg-stone-50">
          <span className="sr-only">Loading the members…</span>
        </div>
      ) : (
        <ul aria-label="Members" className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white">
          {members.map((m) => (
            <li key={m.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 text-sm">
                <p className="truncate font-medium text-stone-900">
                  {fullName(m)} {m.user_type === 'agent' && <span className="ml-1 rounded-sm bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">Agent</span>}
                  {!m.is_active && <span className="ml-1 rounded-sm bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">Deactivated</span>}
                </p>
                <p className="truncate text-stone-600">
                  {m.user_type === 'agent' ? 'No sign-in' : m.email} · {roleLabel(m.role)}
                  {m.is_contractor && ', contractor'}
                  {m.role === 'manager' && m.permissions.length > 0 && <> · {m.permissions.map(permissionLabel).join(', ')}</>}
                </p>
              </div>
              <EditDialog member={m} members={members} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function EditDialog({ member, members }: { member: Member; members: Member[] }) {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary" className="self-start sm:self-center">
        Edit<span className="sr-only"> {fullName(member)}</span>
      </Button>
      <Dialog title={`Edit ${fullName(member)}`}>
        <EditForm member={member} members={members} onDone={() => setOpen(false)} />
      </Dialog>
    </DialogTrigger>
  );
}

function EditForm({ member, members, onDone }: { member: Member; members: Member[]; onDone: () => void }) {
  const { workspace, user } = useWorkspaceSession();
  const update = useUpdateMember();
  const [access, setAccess] = useState<Access>({ role: member.role, permissions: member.permissions as PermissionId[], is_contractor: member.is_contractor });
  const [active, setActive] = useState(member.is_active);
  const [teammates, setTeammates] = useState(member.teammate_ids);
  const { fieldErrors, summary } = formErrors(update.error, ['expected_weekly_hours']);
  const others = members.filter((m) => m.id !== member.id && m.user_type === 'human' && m.is_active);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const { expected_weekly_hours } = fieldsOf(event);
        if (update.isPending) return;
        const body: MemberPatch = {
          ...accessBody(access),
          is_active: active,
          expected_weekly_hours: expected_weekly_hours.trim() || null,
          ...(access.role === 'manager' ? { teammate_ids: teammates } : {}),
        };
        update.mutate({ id: member.id, body }, { onSuccess: onDone });
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <RoleFields value={access} onChange={setAccess} mayGrantOwner={workspace.role === 'owner'} />
      {access.role === 'manager' && others.length > 0 && (
        <fieldset className="flex flex-col gap-2.5">
          <legend className="mb-1 text-sm font-medium text-stone-800">Teammates (whose time this manager approves)</legend>
          {others.map((o) => (
            <Checkbox
              key={o.id}
              isSelected={teammates.includes(o.id)}
              onChange={(on) => setTeammates(on ? [...teammates, o.id] : teammates.filter((t) => t !== o.id))}
            >
              {fullName(o)}
            </Checkbox>
          ))}
        </fieldset>
      )}
      <TextField
        name="expected_weekly_hours"
        label="Expected hours per week"
        description="Leave empty for no expectation."
        defaultValue={member.expected_weekly_hours ?? ''}
        inputMode="decimal"
        validate={(v) => (v && !/^\d{1,3}(\.\d{1,2})?$/.test(v.trim()) ? 'Enter hours such as 40 or 37.5.' : null)}
      />
      {member.id !== user.id && (
        <Switch isSelected={active} onChange={setActive}>
          Active (deactivated members cannot sign in or use keys)
        </Switch>
      )}
      <div>
        <Button type="submit" isPending={update.isPending}>
          Save changes
        </Button>
      </div>
    </Form>
  );
}

const AGENT_ROLES: readonly RoleId[] = ['administrator', 'manager', 'member'];

function AgentDialog() {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary">Add agent</Button>
      <Dialog title="Add an agent">
        <AgentForm onDone={() => setOpen(false)} />
      </Dialog>
    </DialogTrigger>
  );
}

function AgentForm({ onDone }: { onDone: () => void }) {
  const create = useCreateAgent();
  const keyFor = useIdempotencyKey();
  const [access, setAccess] = useState<Access>({ role: 'member', permissions: [], is_contractor: false });
  const { fieldErrors, summary } = formErrors(create.error, ['name']);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const { name } = fieldsOf(event);
        if (create.isPending) return;
        const { role, permissions } = { permissions: undefined, ...accessBody(access) };
        const body = { name: name.trim(), role: role as 'administrator' | 'manager' | 'member', ...(permissions ? { permissions } : {}) };
        create.mutate({ body, key: keyFor(body) }, { onSuccess: onDone });
      }}
    >
      <p className="text-sm text-stone-600">An agent is a program acting in this workspace. It never signs in; give it a key on Settings → API and Developers.</p>
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label="Name" description="Such as “Invoice bot”." isRequired autoFocus maxLength={255} />
      <RoleFields value={{ ...access, is_contractor: false }} onChange={(a) => setAccess({ ...a, is_contractor: false })} mayGrantOwner={false} roles={AGENT_ROLES} contractor={false} />
      <div>
        <Button type="submit" isPending={create.isPending}>
          Add agent
        </Button>
      </div>
    </Form>
  );
}
