import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { isAdministrator } from '../../api/access.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { keyOwnersQuery, keysQuery, useCreateKey, useRevokeKey, useRotateKey, type ApiKey, type IssuedKey } from './api.ts';
import { SettingsSection } from './SettingsSection.tsx';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : 'Never');

/** Settings → API and Developers: the Company ID, the keys, and each member's personal sync key. */
export function ApiPage() {
  const { user, workspace } = useWorkspaceSession();
  const isAdmin = isAdministrator(workspace);
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
        <PageHeading>API and Developers</PageHeading>
        <p className="mt-2 text-sm text-stone-600">
          Programs call the Sheaf API with a key in the <code>Authorization</code> header and this workspace’s Company ID in the{' '}
          <code>Service-Account-Id</code> header.
        </p>
      </div>
      {keys.isError && <Alert>{describeError(keys.error).message}</Alert>}

      <SettingsSection id="section-company-id" title="Company ID">
        <div className="flex flex-wrap items-center gap-3">
          <code className="min-h-6 rounded-sm bg-stone-100 px-2 py-1 font-mono text-sm break-all text-stone-900">
            {companyId ?? '…'}
          </code>
          {companyId && <CopyButton value={companyId} label="Copy Company ID" />}
        </div>
      </SettingsSection>

      {/* Client memberships have no personal key: the route guard keeps them off this page. */}
      <SettingsSection
        id="section-personal"
        title="Your personal sync key"
        description="Acts as you, with your access, for your own tools. Rotating it keeps the old value working for 15 minutes."
      >
        <PersonalKey current={current} previous={current && previous(current)} loading={!keys.data} onIssued={setIssued} />
      </SettingsSection>

      <SettingsSection
        id="section-keys"
        title={isAdmin ? 'Keys of this workspace' : 'Your keys'}
        description={isAdmin ? 'Full-access keys act as the person or agent they are bound to. Their values are never shown again.' : undefined}
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
  const error = create.error ?? rotate.error ?? revoke.error;
  if (loading) return <div className="h-10" aria-busy="true" />;
  return (
    <div className="flex flex-col gap-4">
      {error && <Alert>{describeError(error).message}</Alert>}
      {current ? (
        <>
          <p className="text-sm text-stone-700">
            Key <code className="font-mono">{current.prefix}…</code>, created {at(current.created_at)}, last used {at(current.last_used_at).toLowerCase()}.
            {previous?.expires_at && <> The previous value stops working {at(previous.expires_at)}.</>}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" isPending={rotate.isPending} onPress={() => rotate.mutate(current.id, { onSuccess: onIssued })}>
              Rotate personal key
            </Button>
            <Button variant="secondary" isPending={revoke.isPending} onPress={() => revoke.mutate(current.id)}>
              Revoke personal key
            </Button>
          </div>
          <p className="text-sm text-stone-600">Revoking stops the key at once, and a previous value still working with it.</p>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-stone-700">You have no personal key.</p>
          <Button
            isPending={create.isPending}
            onPress={() => {
              const body = { kind: 'personal' as const, name: 'Personal sync key' };
              create.mutate({ body, key: keyFor(body) }, { onSuccess: onIssued });
            }}
          >
            Create personal key
          </Button>
        </div>
      )}
    </div>
  );
}

function KeyList({ keys, previous }: { keys?: ApiKey[]; previous: (k: ApiKey) => ApiKey | undefined }) {
  const revoke = useRevokeKey();
  if (!keys) return <div className="h-24" aria-busy="true" />;
  if (!keys.length) return <p className="text-sm text-stone-600">No keys yet.</p>;
  return (
    <div className="flex flex-col gap-3">
      {revoke.error && <Alert>{describeError(revoke.error).message}</Alert>}
      <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label="Keys">
        {keys.map((k) => (
          <li key={k.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 text-sm">
              <p className="font-medium text-stone-900">
                {k.name} <span className="font-normal text-stone-600">· {k.kind === 'personal' ? 'Personal sync key' : 'Full access'}</span>
              </p>
              <p className="text-stone-600">
                <code className="font-mono">{k.prefix}…</code> · {k.user.name} · created {at(k.created_at)} · last used {at(k.last_used_at).toLowerCase()}
                {previous(k)?.expires_at && <> · previous value stops working {at(previous(k)!.expires_at)}</>}
              </p>
            </div>
            <Button variant="secondary" className="self-start sm:self-center" onPress={() => revoke.mutate(k.id)}>
              Revoke<span className="sr-only"> {k.name} ({k.prefix})</span>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function CreateKeyDialog({ onIssued }: { onIssued: (k: IssuedKey) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button>Create full-access key</Button>
      <Dialog title="Create a full-access key">
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
  const owners = useQuery(keyOwnersQuery);
  const create = useCreateKey();
  const keyFor = useIdempotencyKey();
  const [userProblem, setUserProblem] = useState<string>();
  const { fieldErrors, summary } = formErrors(create.error, ['name', 'user_id']);
  return (
    <Form
      validationErrors={{ ...(userProblem ? { user_id: userProblem } : {}), ...fieldErrors }}
      onSubmit={(event) => {
        const { name, user_id } = fieldsOf(event);
        if (!user_id) return setUserProblem('Choose who the key acts as.');
        setUserProblem(undefined);
        if (create.isPending) return;
        const body = { kind: 'integration' as const, name: name.trim(), user_id };
        create.mutate({ body, key: keyFor(body) }, { onSuccess: onIssued });
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label="Name" description="What uses it, such as “Payroll export”." isRequired autoFocus maxLength={255} />
      <Select
        name="user_id"
        label="Acts as"
        description="A person or an agent; the key has their access."
        options={(owners.data ?? []).map((m) => ({ id: m.id, label: m.name, detail: m.detail }))}
        isDisabled={!owners.data}
        isRequired
      />
      {owners.isError && <Alert>{describeError(owners.error).message}</Alert>}
      <div>
        <Button type="submit" isPending={create.isPending}>
          Create key
        </Button>
      </div>
    </Form>
  );
}

/** The one time a key's value is shown: with a copy button and a ready curl line. */
function SecretDialog({ issued, companyId, onClose }: { issued: IssuedKey | null; companyId: string; onClose: () => void }) {
  const curl = issued
    ? `curl -H "Authorization: Bearer ${issued.secret}" -H "Service-Account-Id: ${companyId}" ${window.location.origin}/api/v2/users/me`
    : '';
  return (
    <Dialog title="Copy your new key now" isOpen={issued !== null} onOpenChange={(open) => !open && onClose()}>
      {issued && (
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-700">
            This is the only time <strong>{issued.key.name}</strong> is shown. Store it somewhere safe; if it is lost, rotate or create another.
          </p>
          <div className="flex flex-col gap-2">
            <p className="font-medium text-stone-800">Key</p>
            <code className="rounded-sm bg-stone-100 p-2 font-mono break-all text-stone-900">
              {issued.secret}
            </code>
            <CopyButton value={issued.secret} label="Copy key" />
          </div>
          <div className="flex flex-col gap-2">
            <p className="font-medium text-stone-800">Try it</p>
            <code className="rounded-sm bg-stone-100 p-2 font-mono text-xs break-all text-stone-900">
              {curl}
            </code>
            <CopyButton value={curl} label="Copy curl command" />
          </div>
          <div>
            <Button onPress={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
