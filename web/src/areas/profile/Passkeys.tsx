import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { passkeyBrowserError, passkeysSupported } from '../../api/passkeys.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { twoFactorQuery, useAddPasskey, useRemovePasskey, useRenamePasskey, type OwnPasskey } from './api.ts';
import { useProfileTexts } from './texts.ts';

/**
 * Passkeys (issue 28 item 3): the person's passkeys with when each was added and last used,
 * one added through the browser's own dialog (Touch ID, Windows Hello, a phone, a security
 * key) under a name they choose, renamed in place, removed after a confirmation.
 */
export function PasskeysSection() {
  const t = useProfileTexts();
  const query = useQuery({ ...twoFactorQuery, select: (state) => state.passkeys });
  const supported = passkeysSupported();
  return (
    <SettingsSection id="section-passkeys" title={t('passkeys')} description={t('passkeysHint')}>
      <div className="flex flex-col gap-4">
        {query.isError ? (
          <Alert>{describeError(query.error).message}</Alert>
        ) : !query.data ? (
          <p className="text-sm text-stone-600" aria-busy="true">
            {t('passkeysLoading')}
          </p>
        ) : query.data.length === 0 ? (
          <p className="text-sm text-stone-800">{t('passkeysNone')}</p>
        ) : (
          <ul className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label={t('passkeysList')}>
            {query.data.map((p) => (
              <PasskeyRow key={p.id} passkey={p} />
            ))}
          </ul>
        )}
        {supported ? <AddPasskey /> : <Alert tone="info">{t('passkeysUnsupported')}</Alert>}
      </div>
    </SettingsSection>
  );
}

/** Adds a passkey of this device under a name; the browser's dialog does the rest. */
export function AddPasskey({ onAdded }: { onAdded?: () => void }) {
  const t = useProfileTexts();
  const add = useAddPasskey();
  const [added, setAdded] = useState<string | null>(null);
  const browserMessage = passkeyBrowserError(add.error);
  const { fieldErrors, summary } = useMemo(() => (browserMessage ? { fieldErrors: {}, summary: null } : formErrors(add.error, ['name'])), [add.error, browserMessage]);
  return (
    <Form
      aria-label={t('passkeyAdd')}
      validationErrors={fieldErrors}
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        const form = event.currentTarget;
        const { name } = fieldsOf(event);
        setAdded(null);
        add.mutate(name ?? '', {
          onSuccess: (passkey) => {
            setAdded(passkey.name);
            form.reset();
            onAdded?.();
          },
        });
      }}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          name="name"
          label={t('passkeyNewName')}
          placeholder={t('passkeyNamePlaceholder')}
          maxLength={100}
          className="min-w-0 grow sm:max-w-sm"
          onChange={() => add.error && add.reset()}
        />
        <Button type="submit" variant="secondary" isPending={add.isPending} className="self-start sm:self-end">
          {t('passkeyAdd')}
        </Button>
      </div>
      <div aria-live="polite">
        {(browserMessage ?? summary) && <Alert>{browserMessage ?? summary}</Alert>}
        {added && <Alert tone="success">{t('passkeyAdded', { name: added })}</Alert>}
      </div>
    </Form>
  );
}

function PasskeyRow({ passkey }: { passkey: OwnPasskey }) {
  const t = useProfileTexts();
  const format = useFormat();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [editing, setEditing] = useState(false);
  const { fieldErrors, summary } = useMemo(() => formErrors(rename.error, ['name']), [rename.error]);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={passkey.name}>
      {editing ? (
        <Form
          aria-label={t('passkeyRenameNamed', { name: passkey.name })}
          validationErrors={fieldErrors}
          className="flex min-w-0 grow flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            const { name } = fieldsOf(event);
            rename.mutate({ id: passkey.id, name: name ?? '' }, { onSuccess: () => setEditing(false) });
          }}
        >
          <TextField name="name" label={t('passkeyName')} defaultValue={passkey.name} maxLength={100} isRequired autoFocus className="min-w-0 grow sm:max-w-sm" />
          <div className="flex gap-2">
            <Button type="submit" isPending={rename.isPending}>
              {t('passkeyRenameSave')}
            </Button>
            <Button variant="secondary" onPress={() => (setEditing(false), rename.reset())}>
              {t('passkeyRenameCancel')}
            </Button>
          </div>
          {summary && <Alert className="basis-full">{summary}</Alert>}
        </Form>
      ) : (
        <>
          <div className="min-w-0 text-sm">
            <p className="font-medium break-words text-stone-900">
              {passkey.name}
              {passkey.synced && <span className="ml-2 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">{t('passkeySynced')}</span>}
            </p>
            <p className="mt-1 text-stone-600">
              {t('passkeyAddedAt', { added: format.dateTime(passkey.created_at) })} ·{' '}
              {passkey.last_used_at ? t('passkeyUsedAt', { used: format.dateTime(passkey.last_used_at) }) : t('passkeyNeverUsed')}
            </p>
          </div>
          <div className="flex shrink-0 gap-2 self-start sm:self-center">
            <Button variant="secondary" onPress={() => setEditing(true)} aria-label={t('passkeyRenameNamed', { name: passkey.name })}>
              {t('passkeyRename')}
            </Button>
            <ConfirmButton
              label={t('passkeyRemove')}
              ariaLabel={t('passkeyRemoveNamed', { name: passkey.name })}
              title={t('passkeyRemoveTitle', { name: passkey.name })}
              text={t('passkeyRemoveText')}
              confirmLabel={t('passkeyRemove')}
              isPending={remove.isPending}
              errorMessage={remove.error && describeError(remove.error).message}
              onOpenChange={() => remove.reset()}
              onConfirm={(close) => remove.mutate(passkey.id, { onSuccess: close })}
            />
          </div>
        </>
      )}
    </li>
  );
}
