import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { permissionLabel, roleLabel, type PermissionId, type RoleId } from '../../api/roles.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { fullName, membersQuery, useCreateAgent, useEndMemberSessions, useUpdateMember, type Member, type MemberPatch } from './api.ts';
import { accessBody, RoleFields, type Access } from './RoleFields.tsx';
import { useMemberTexts } from './texts.ts';
import { TeammatesField } from './TeammatesField.tsx';
import { WorkingPatternDialog } from './WorkingPatternDialog.tsx';

/** Settings → Members: everyone in the workspace, people and agents; edit access, teammates, hours, deactivate; a person's working pattern. */
export function MembersPage() {
  const list = useQuery(membersQuery);
  const members = list.data?.members ?? [];
  const t = useMemberTexts();
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>{t('members.heading')}</PageHeading>
          <p className="mt-2 text-sm text-stone-600">{t('members.intro')}</p>
        </div>
        <AgentDialog />
      </div>
      {list.isError ? (
        <Alert>{describeError(list.error).message}</Alert>
      ) : !list.data ? (
        <div aria-busy="true" className="h-64 animate-pulse rounded-lg border border-stone-200 bg-stone-50">
          <span className="sr-only">{t('members.loading')}</span>
        </div>
      ) : (
        <ul aria-label={t('members.list')} className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white">
          {members.map((m) => (
            <li key={m.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 text-sm">
                <p className="truncate font-medium text-stone-900">
                  {fullName(m)} {m.user_type === 'agent' && <span className="ml-1 rounded-sm bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">{t('members.agent')}</span>}
                  {!m.is_active && <span className="ml-1 rounded-sm bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">{t('members.deactivated')}</span>}
                </p>
                <p className="truncate text-stone-600">
                  {m.user_type === 'agent' ? t('members.noSignIn') : m.email} ·{' '}
                  {m.is_contractor ? t('members.roleContractor', { role: roleLabel(m.role) }) : roleLabel(m.role)}
                  {m.role === 'manager' && m.permissions.length > 0 && <> · {m.permissions.map(permissionLabel).join(', ')}</>}
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap gap-2 self-start sm:self-center">
                <EditDialog member={m} members={members} />
                {m.user_type === 'human' && <WorkingPatternDialog member={m} />}
                {m.user_type === 'human' && m.is_active && <SignOutButton member={m} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * "Sign out everywhere" on a member (a lost laptop): ends every session of the person at once;
 * the row then says how many. Only an owner signs out an owner (the server's 403 shows in the dialog).
 */
function SignOutButton({ member }: { member: Member }) {
  const end = useEndMemberSessions();
  const t = useMemberTexts();
  const name = fullName(member);
  return (
    <>
      <ConfirmButton
        label={t('members.signOut')}
        ariaLabel={t('members.signOutNamed', { name })}
        title={t('members.signOutTitle', { name })}
        text={t('members.signOutText', { name })}
        confirmLabel={t('members.signOutConfirm')}
        isPending={end.isPending}
        errorMessage={end.error ? describeError(end.error).message : null}
        onOpenChange={() => end.reset()}
        onConfirm={(close) => end.mutate(member.id, { onSuccess: close })}
      />
      {end.data && (
        <p role="status" className="basis-full text-sm text-stone-600">
          {t('members.signedOut', { name, count: end.data.ended })}
        </p>
      )}
    </>
  );
}

function EditDialog({ member, members }: { member: Member; members: Member[] }) {
  const [open, setOpen] = useState(false);
  const t = useMemberTexts();
  const label = t('members.editNamed', { name: fullName(member) });
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary" aria-label={label}>
        {t('members.edit')}
      </Button>
      <Dialog title={label}>
        <EditForm member={member} members={members} onDone={() => setOpen(false)} />
      </Dialog>
    </DialogTrigger>
  );
}

function EditForm({ member, members, onDone }: { member: Member; members: Member[]; onDone: () => void }) {
  const { workspace, user } = useWorkspaceSession();
  const update = useUpdateMember();
  const t = useMemberTexts();
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
        <TeammatesField people={others} value={teammates} onChange={setTeammates} />
      )}
      <TextField
        name="expected_weekly_hours"
        label={t('members.expectedHours')}
        description={t('members.expectedHoursHint')}
        defaultValue={member.expected_weekly_hours ?? ''}
        inputMode="decimal"
        validate={(v) => (v && !/^\d{1,3}(\.\d{1,2})?$/.test(v.trim()) ? t('members.expectedHoursProblem') : null)}
      />
      {member.id !== user.id && (
        <Switch isSelected={active} onChange={setActive}>
          {t('members.active')}
        </Switch>
      )}
      <div>
        <Button type="submit" isPending={update.isPending}>
          {t('members.save')}
        </Button>
      </div>
    </Form>
  );
}

const AGENT_ROLES: readonly RoleId[] = ['administrator', 'manager', 'member'];

function AgentDialog() {
  const [open, setOpen] = useState(false);
  const t = useMemberTexts();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary">{t('members.addAgent')}</Button>
      <Dialog title={t('members.addAgentTitle')}>
        <AgentForm onDone={() => setOpen(false)} />
      </Dialog>
    </DialogTrigger>
  );
}

function AgentForm({ onDone }: { onDone: () => void }) {
  const create = useCreateAgent();
  const keyFor = useIdempotencyKey();
  const t = useMemberTexts();
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
      <p className="text-sm text-stone-600">{t('members.agentIntro')}</p>
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label={t('members.name')} description={t('members.agentNameHint')} isRequired autoFocus maxLength={255} />
      <RoleFields value={{ ...access, is_contractor: false }} onChange={(a) => setAccess({ ...a, is_contractor: false })} mayGrantOwner={false} roles={AGENT_ROLES} contractor={false} />
      <div>
        <Button type="submit" isPending={create.isPending}>
          {t('members.addAgent')}
        </Button>
      </div>
    </Form>
  );
}
