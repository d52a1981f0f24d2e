import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { isAdministrator, mayAdministerRole } from '../../api/access.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { keyOwnersQuery, keysQuery, useCreateKey, useRevokeKey, useRotateKey, type ApiKey, type IssuedKey } from './api.ts';
import { useCredentialTexts } from './texts.ts';

/** An instant as the person reads it, or "never". */
function useAt() {
  const format = useFormat();
  const t = useCredentialTexts();
  return (iso: string | null) => (iso ? format.dateTime(iso) : t('never'));
}

/** Settings → API and Developers: the Company ID, the keys, and each member's personal sync key. */
export function ApiPage() {
  const { user, workspace } = useWorkspaceSession();
  const isAdmin = isAdministrator(workspace);
  const t = useCredentialTexts();
  const keys = useQuery(keysQuery);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const companyId = keys.data?.company_id;
  const active = (keys.data?.keys ?? []).filter((k) => !k.revoked_at);
  // A rotated value still working is part of its key (revoking one revokes both): shown in the key's row, not as a key.
  const shown = active.filter((k) => !k.expires_at);
  const previous = (k: ApiKey) => active.find((o) => o.expires_at && o.kind === k.kind && o.user.id === k.user.id && o.name === k.name);
  const current = shown.find((k) => k.kind === 'personal' && k.user.id === user.id);

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <PageHeading>{t('heading')}</PageHeading>
        <p className="mt-2 text-sm text-stone-600">
          {t('introBefore')}
          <code>Authorization</code>
          {t('introMiddle')}
          <code>Service-Account-Id</code>
          {t('introAfter')}
        </p>
      </div>
      {keys.isError && <Alert>{describeError(keys.error).message}</Alert>}

      <SettingsSection id="section-company-id" title={t('companyId')}>
        <div className="flex flex-wrap items-center gap-3">
          <code className="min-h-6 rounded-sm bg-stone-100 px-2 py-1 font-mono text-sm break-all text-stone-900">
            {companyId ?? '…'}
          </code>
          {companyId && <CopyButton value={companyId} label={t('copyCompanyId')} />}
        </div>
      </SettingsSection>

      {/* Client memberships have no personal key: the route guard keeps them off this page. */}
      <SettingsSection
        id="section-personal"
        title={t('personal')}
        description={t('personalHint')}
      >
        <PersonalKey current={current} previous={current && previous(current)} loading={!keys.data} onIssued={setIssued} />
      </SettingsSection>

      <SettingsSection
        id="section-keys"
        title={isAdmin ? t('keysAdmin') : t('keysOwn')}
        description={isAdmin ? t('keysAdminHint') : undefined}
      >
        {isAdmin && (
          <div className="mb-4">
            <CreateKeyDialog onIssued={setIssued} />
          </div>
        )}
        <KeyList keys={keys.data ? shown : undefined} previous={previous} />
      </SettingsSection>

      <SecretDialog issued={issued} companyId={companyId ?? ''} onClose={() => setIssued(null)} />
    </div>
  );
}

function PersonalKey({ current, previous, loading, onIssued }: { current?: ApiKey; previous?: ApiKey; loading: boolean; onIssued: (k: IssuedKey) => void }) {
  const create = useCreateKey();
  const rotate = useRotateKey();
  const revoke = useRevokeKey();
  const keyFor = useIdempotencyKey();
  const t = useCredentialTexts();
  const at = useAt();
  const error = create.error ?? rotate.error ?? revoke.error;
  if (loading) return <div className="h-10" aria-busy="true" />;
  return (
    <div className="flex flex-col gap-4">
      {error && <Alert>{describeError(error).message}</Alert>}
      {current ? (
        <>
          <p className="text-sm text-stone-700">
            {t('personalKeyBefore')}
            <code className="font-mono">{current.prefix}…</code>
            {t('personalKeyAfter', { created: at(current.created_at), used: at(current.last_used_at) })}
            {previous?.expires_at && t('previousStops', { when: at(previous.expires_at) })}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" isPending={rotate.isPending} onPress={() => rotate.mutate(current.id, { onSuccess: onIssued })}>
              {t('rotate')}
            </Button>
            <Button variant="secondary" isPending={revoke.isPending} onPress={() => revoke.mutate(current.id)}>
              {t('revokePersonal')}
            </Button>
          </div>
          <p className="text-sm text-stone-600">{t('revokeExplained')}</p>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-stone-700">{t('noPersonal')}</p>
          <Button
            isPending={create.isPending}
            onPress={() => {
              const body = { kind: 'personal' as const, name: t('personalKeyName') };
              create.mutate({ body, key: keyFor(body) }, { onSuccess: onIssued });
            }}
          >
            {t('createPersonal')}
          </Button>
        </div>
      )}
    </div>
  );
}

function KeyList({ keys, previous }: { keys?: ApiKey[]; previous: (k: ApiKey) => ApiKey | undefined }) {
  const revoke = useRevokeKey();
  const t = useCredentialTexts();
  const at = useAt();
  if (!keys) return <div className="h-24" aria-busy="true" />;
  if (!keys.length) return <p className="text-sm text-stone-600">{t('noKeys')}</p>;
  return (
    <div className="flex flex-col gap-3">
      {revoke.error && <Alert>{describeError(revoke.error).message}</Alert>}
      <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label={t('keys')}>
        {keys.map((k) => (
          <li key={k.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 text-sm">
              <p className="font-medium text-stone-900">
                {k.name} <span className="font-normal text-stone-600">· {k.kind === 'personal' ? t('kinds.personal') : t('kinds.integration')}</span>
              </p>
              <p className="text-stone-600">
                <code className="font-mono">{k.prefix}…</code> · {t('keyDetails', { owner: k.user.name, created: at(k.created_at), used: at(k.last_used_at) })}
                {previous(k)?.expires_at && t('previousStopsShort', { when: at(previous(k)!.expires_at) })}
              </p>
            </div>
            {k.may_revoke && (
              <Button
                variant="secondary"
                className="self-start sm:self-center"
                aria-label={t('revokeNamed', { name: k.name, prefix: k.prefix })}
                onPress={() => revoke.mutate(k.id)}
              >
                {t('revoke')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function CreateKeyDialog({ onIssued }: { onIssued: (k: IssuedKey) => void }) {
  const [open, setOpen] = useState(false);
  const t = useCredentialTexts();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button>{t('createFullAccess')}</Button>
      <Dialog title={t('createTitle')}>
        <CreateKeyForm
          onIssued={(k) => {
            setOpen(false);
            onIssued(k);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

function CreateKeyForm({ onIssued }: { onIssued: (k: IssuedKey) => void }) {
  const { workspace } = useWorkspaceSession();
  const owners = useQuery(keyOwnersQuery);
  const create = useCreateKey();
  const keyFor = useIdempotencyKey();
  const t = useCredentialTexts();
  const [userProblem, setUserProblem] = useState<string>();
  const { fieldErrors, summary } = formErrors(create.error, ['name', 'user_id']);
  return (
    <Form
      validationErrors={{ ...(userProblem ? { user_id: userProblem } : {}), ...fieldErrors }}
      onSubmit={(event) => {
        const { name, user_id } = fieldsOf(event);
        if (!user_id) return setUserProblem(t('chooseOwner'));
        setUserProblem(undefined);
        if (create.isPending) return;
        const body = { kind: 'integration' as const, name: name.trim(), user_id };
        create.mutate({ body, key: keyFor(body) }, { onSuccess: onIssued });
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label={t('name')} description={t('nameHint')} isRequired autoFocus maxLength={255} />
      <Select
        name="user_id"
        label={t('actsAs')}
        description={t('actsAsHint')}
        // A key that acts as an owner is an owner's to make (the server refuses an administrator).
        options={(owners.data ?? []).filter((m) => mayAdministerRole(workspace, m.role)).map((m) => ({ id: m.id, label: m.name, detail: m.email ?? t('agent') }))}
        isDisabled={!owners.data}
        isRequired
      />
      {owners.isError && <Alert>{describeError(owners.error).message}</Alert>}
      <div>
        <Button type="submit" isPending={create.isPending}>
          {t('createKey')}
        </Button>
      </div>
    </Form>
  );
}

/** The one time a key's value is shown: with a copy button and a ready curl line. */
function SecretDialog({ issued, companyId, onClose }: { issued: IssuedKey | null; companyId: string; onClose: () => void }) {
  const t = useCredentialTexts();
  const curl = issued
    ? `curl -H "Authorization: Bearer ${issued.secret}" -H "Service-Account-Id: ${companyId}" ${window.location.origin}/api/v2/users/me`
    : '';
  return (
    <Dialog title={t('secretTitle')} isOpen={issued !== null} onOpenChange={(open) => !open && onClose()}>
      {issued && (
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-700">
            {t('secretBefore')}
            <strong>{issued.key.name}</strong>
            {t('secretAfter')}
          </p>
          <div className="flex flex-col gap-2">
            <p className="font-medium text-stone-800">{t('key')}</p>
            <code className="rounded-sm bg-stone-100 p-2 font-mono break-all text-stone-900">
              {issued.secret}
            </code>
            <CopyButton value={issued.secret} label={t('copyKey')} />
          </div>
          <div className="flex flex-col gap-2">
            <p className="font-medium text-stone-800">{t('tryIt')}</p>
            <code className="rounded-sm bg-stone-100 p-2 font-mono text-xs break-all text-stone-900">
              {curl}
            </code>
            <CopyButton value={curl} label={t('copyCurl')} />
          </div>
          <div>
            <Button onPress={onClose}>{t('done')}</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
