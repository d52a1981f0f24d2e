import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, formErrors } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Select } from '../../ui/Select.tsx';
import { SettingsPage, SettingsSection } from '../../ui/SettingsSection.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { singleSignOnQuery, useRemoveSingleSignOn, useSaveSingleSignOn, type SingleSignOnInput, type SingleSignOnState } from './api.ts';
import { useSingleSignOnTexts } from './texts.ts';

const ROLES = ['member', 'manager', 'administrator'] as const;
const FIELDS = ['issuer', 'client_id', 'client_secret', 'allowed_domains', 'new_member_role', 'display_name'];

/** Settings → Single sign-on: the workspace's OpenID Connect provider (owners and administrators). */
export function SingleSignOnPage() {
  const query = useQuery(singleSignOnQuery);
  const t = useSingleSignOnTexts();
  return (
    <SettingsPage
      heading={t('heading')}
      intro={t('intro')}
      error={query.isError ? describeError(query.error).message : null}
      data={query.data}
      loading={t('loading')}
      placeholder="h-[36rem]"
    >
      {(state) => <SingleSignOnForm state={state} />}
    </SettingsPage>
  );
}

function SingleSignOnForm({ state }: { state: SingleSignOnState }) {
  const t = useSingleSignOnTexts();
  const save = useSaveSingleSignOn();
  const remove = useRemoveSingleSignOn();
  const [saved, setSaved] = useState(false);
  // Controlled so that a saved secret leaves the page at once.
  const [secret, setSecret] = useState('');
  const server = formErrors(save.error, FIELDS);
  // A domain's error names its line (allowed_domains.2): shown under the list.
  const fieldErrors = { ...server.fieldErrors };
  const domainField = save.error ? describeError(save.error).field : undefined;
  if (domainField?.startsWith('allowed_domains.')) fieldErrors.allowed_domains = describeError(save.error).message;

  return (
    <div className="flex flex-col gap-6">
      <Alert tone="info">{state.enabled ? t('status.on', { name: state.display_name ?? '' }) : t('status.off')}</Alert>
      {!state.available && <Alert>{t('noKey')}</Alert>}
      <Form
        validationErrors={fieldErrors}
        onSubmit={(event) => {
          const f = fieldsOf(event);
          const body: SingleSignOnInput = {
            issuer: f.issuer.trim(),
            client_id: f.client_id.trim(),
            ...(f.client_secret ? { client_secret: f.client_secret } : {}),
            allowed_domains: f.allowed_domains
              .split(/[\s,;]+/)
              .map((d) => d.trim())
              .filter(Boolean),
            new_member_role: f.new_member_role as SingleSignOnInput['new_member_role'],
            allow_password_sign_in: f.allow_password_sign_in === 'on',
            display_name: f.display_name.trim(),
          };
          setSaved(false);
          if (save.isPending) return;
          save.mutate(body, {
            onSuccess: () => {
              setSaved(true);
              setSecret('');
            },
          });
        }}
      >
        {server.summary && !domainField?.startsWith('allowed_domains.') && <Alert>{server.summary}</Alert>}
        <SettingsSection id="section-provider" title={t('provider')} description={t('providerHint')}>
          <div className="grid gap-5">
            <div className="flex flex-col gap-1.5">
              <span className="text-sm font-medium text-stone-800">
                {t('redirectUri')}
              </span>
              <div className="flex flex-wrap items-center gap-2">
                <code className="rounded bg-stone-100 px-2 py-1 text-sm break-all text-stone-900">
                  {state.redirect_uri}
                </code>
                <CopyButton value={state.redirect_uri} />
              </div>
            </div>
            <TextField name="issuer" type="url" label={t('issuer')} description={t('issuerHint')} defaultValue={state.issuer ?? ''} isRequired />
            <TextField name="client_id" label={t('clientId')} defaultValue={state.client_id ?? ''} isRequired />
            <TextField
              name="client_secret"
              value={secret}
              onChange={setSecret}
              type="password"
              autoComplete="new-password"
              label={t('clientSecret')}
              description={state.client_secret_set ? t('clientSecretKeep') : t('clientSecretHint')}
              isRequired={!state.client_secret_set}
            />
          </div>
        </SettingsSection>
        <SettingsSection id="section-people" title={t('people')}>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField name="display_name" label={t('displayName')} description={t('displayNameHint')} defaultValue={state.display_name ?? ''} isRequired />
            <Select
              name="new_member_role"
              label={t('role')}
              options={ROLES.map((id) => ({ id, label: t(`roles.${id}`) }))}
              defaultSelectedKey={state.new_member_role}
            />
            <TextArea
              name="allowed_domains"
              label={t('domains')}
              description={t('domainsHint')}
              defaultValue={state.allowed_domains.join('\n')}
              className="sm:col-span-2"
            />
          </div>
          <div className="mt-6">
            <Switch name="allow_password_sign_in" defaultSelected={state.allow_password_sign_in}>
              {t('allowPasswords')}
            </Switch>
            <p className="mt-1 pl-13 text-sm text-stone-600">{t('allowPasswordsHint')}</p>
          </div>
        </SettingsSection>
        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit" isPending={save.isPending} isDisabled={!state.available}>
            {t('save')}
          </Button>
          {saved && !save.isPending && (
            <p role="status" className="text-sm text-emerald-800">
              {t('saved')}
            </p>
          )}
        </div>
      </Form>
      {state.enabled && (
        <div>
          <ConfirmButton
            label={t('remove')}
            title={t('removeTitle')}
            text={t('removeText')}
            confirmLabel={t('removeConfirm')}
            isPending={remove.isPending}
            errorMessage={remove.error ? describeError(remove.error).message : null}
            onConfirm={(close) => remove.mutate(undefined, { onSuccess: close })}
          />
        </div>
      )}
    </div>
  );
}
