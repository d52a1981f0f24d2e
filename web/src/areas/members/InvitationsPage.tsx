import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { invitationsQuery, useInvite, useResendInvitation, useRevokeInvitation, type Invitation } from './api.ts';
import { accessBody, RoleFields, type Access } from './RoleFields.tsx';
import { roleLabel } from '../../api/roles.ts';
import { useMemberTexts } from './texts.ts';

/** Settings → Invitations: invite by e-mail, see who was invited, resend or revoke a pending invitation. */
export function InvitationsPage() {
  const list = useQuery(invitationsQuery);
  const [notice, setNotice] = useState<string>();
  const t = useMemberTexts();
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>{t('invitations.heading')}</PageHeading>
          <p className="mt-2 text-sm text-stone-600">{t('invitations.intro')}</p>
        </div>
        <InviteDialog onInvited={(email) => setNotice(t('invitations.sent', { email }))} />
      </div>
      {notice && <Alert tone="success">{notice}</Alert>}
      {list.isError ? (
        <Alert>{describeError(list.error).message}</Alert>
      ) : !list.data ? (
        <div aria-busy="true" className="h-40 animate-pulse rounded-lg border border-stone-200 bg-stone-50">
          <span className="sr-only">{t('invitations.loading')}</span>
        </div>
      ) : list.data.invitations.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 p-8 text-center text-sm text-stone-600">{t('invitations.none')}</p>
      ) : (
        <InvitationList invitations={list.data.invitations} onNotice={setNotice} />
      )}
    </div>
  );
}

function InvitationList({ invitations, onNotice }: { invitations: Invitation[]; onNotice: (n: string) => void }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const t = useMemberTexts();
  const format = useFormat();
  const error = resend.error ?? revoke.error;
  return (
    <div className="flex flex-col gap-3">
      {error && <Alert>{describeError(error).message}</Alert>}
      <ul aria-label={t('invitations.list')} className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white">
        {invitations.map((i) => (
          <li key={i.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 text-sm">
              <p className="truncate font-medium text-stone-900">{i.email}</p>
              <p className="text-stone-600">
                {i.is_contractor ? t('members.roleContractor', { role: roleLabel(i.role) }) : roleLabel(i.role)} · {t(`invitations.status.${i.status}`)}
                {i.status === 'pending' && <> · {t('invitations.expires', { when: format.dateTime(i.expires_at) })}</>}
                {i.invited_by && <> · {t('invitations.invitedBy', { name: i.invited_by.name })}</>}
              </p>
            </div>
            {i.status !== 'accepted' && i.status !== 'revoked' && (
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  aria-label={t('invitations.resendNamed', { email: i.email })}
                  onPress={() => resend.mutate(i.id, { onSuccess: () => onNotice(t('invitations.sentAgain', { email: i.email })) })}
                >
                  {t('invitations.resend')}
                </Button>
                {i.status === 'pending' && (
                  <Button
                    variant="secondary"
                    aria-label={t('invitations.revokeNamed', { email: i.email })}
                    onPress={() => revoke.mutate(i.id, { onSuccess: () => onNotice(t('invitations.revoked', { email: i.email })) })}
                  >
                    {t('invitations.revoke')}
                  </Button>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function InviteDialog({ onInvited }: { onInvited: (email: string) => void }) {
  const [open, setOpen] = useState(false);
  const t = useMemberTexts();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button>{t('invitations.invite')}</Button>
      <Dialog title={t('invitations.invite')}>
        <InviteForm
          onInvited={(email) => {
            setOpen(false);
            onInvited(email);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string) => void }) {
  const { workspace } = useWorkspaceSession();
  const invite = useInvite();
  const keyFor = useIdempotencyKey();
  const t = useMemberTexts();
  const [access, setAccess] = useState<Access>({ role: 'member', permissions: [], is_contractor: false });
  const { fieldErrors, summary } = formErrors(invite.error, ['email']);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const { email } = fieldsOf(event);
        if (invite.isPending) return;
        const body = { email: email.trim(), ...accessBody(access) };
        invite.mutate({ body, key: keyFor(body) }, { onSuccess: () => onInvited(body.email) });
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField name="email" type="email" label={t('invitations.email')} autoComplete="off" isRequired autoFocus />
      <RoleFields value={access} onChange={setAccess} mayGrantOwner={workspace.role === 'owner'} />
      <div>
        <Button type="submit" isPending={invite.isPending}>
          {t('invitations.send')}
        </Button>
      </div>
    </Form>
  );
}
