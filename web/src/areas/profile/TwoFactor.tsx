import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { saveFile } from '../../ui/save-file.ts';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { twoFactorQuery, useDisableTwoFactor, useEnableTwoFactor, useRegenerateRecoveryCodes, useStartTwoFactorSetup, useTwoFactorSeen } from './api.ts';
import { useProfileTexts } from './texts.ts';

/**
 * Two-factor sign-in (issue 28 item 2): set up with a QR code (or the secret typed by hand)
 * and a first code; the ten recovery codes shown once, to copy or download; new recovery
 * codes with a code; turned off with the password and a code.
 */

/** The set-up steps: start, scan and confirm, then the recovery codes. `onDone`: after the codes were seen. */
export function TwoFactorSetup({ onDone }: { onDone?: () => void }) {
  const t = useProfileTexts();
  const start = useStartTwoFactorSetup();
  const enable = useEnableTwoFactor();
  // One object per error: a new one each render would bring a cleared server error back (React Aria compares them).
  const { fieldErrors, summary } = useMemo(() => formErrors(enable.error, ['code']), [enable.error]);
  if (enable.data) return <RecoveryCodes codes={enable.data} onDone={onDone} />;
  if (!start.data) {
    return (
      <div className="flex flex-col gap-3">
        {start.error && <Alert>{describeError(start.error).message}</Alert>}
        <div>
          <Button isPending={start.isPending} onPress={() => start.mutate()}>
            {t('twoFactorStart')}
          </Button>
        </div>
      </div>
    );
  }
  const setup = start.data;
  return (
    <div className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-stone-700">
        <li>{t('twoFactorScan')}</li>
        <li>{t('twoFactorConfirm')}</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img
          src={`data:image/svg+xml;base64,${btoa(setup.qr_svg)}`}
          alt={t('twoFactorQrAlt')}
          width={192}
          height={192}
          className="size-48 shrink-0 rounded border border-stone-200 bg-white p-1"
        />
        <div className="flex min-w-0 flex-col gap-2">
          <p className="text-sm text-stone-700">{t('twoFactorManual')}</p>
          <code data-testid="two-factor-secret" className="rounded bg-stone-100 px-2 py-1 font-mono text-sm break-all text-stone-900">
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
      </div>
      {summary && <Alert>{summary}</Alert>}
      <Form
        validationErrors={fieldErrors}
        onSubmit={(event) => {
          const { code } = fieldsOf(event);
          if (enable.isPending) return;
          enable.mutate(code.replace(/\s/g, ''));
        }}
      >
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            name="code"
            label={t('twoFactorCode')}
            description={t('twoFactorCodeHint')}
            autoComplete="one-time-code"
            maxLength={32}
            isRequired
            // A new code forgets the server's error, or the browser would still hold the field invalid for one more press.
            onChange={() => enable.error && enable.reset()}
          />
          <Button type="submit" isPending={enable.isPending} className="sm:mt-6">
            {t('twoFactorEnable')}
          </Button>
        </div>
      </Form>
    </div>
  );
}

/** Recovery codes, shown this once: copy, download, and a button that says they are kept. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone?: () => void }) {
  const t = useProfileTexts();
  const text = codes.join('\n');
  return (
    <div className="flex flex-col gap-4">
      <Alert tone="success" title={t('recoveryTitle')}>
        <p>{t('recoveryHint')}</p>
      </Alert>
      <ul aria-label={t('recoveryList')} className="grid grid-cols-2 gap-2 rounded-lg border border-stone-200 bg-stone-50 p-4 font-mono text-sm text-stone-900 sm:grid-cols-5">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <CopyButton value={text} label={t('recoveryCopy')} />
        <Button variant="secondary" onPress={() => saveFile(new Blob([`${text}\n`], { type: 'text/plain' }), 'sheaf-recovery-codes.txt')}>
          {t('recoveryDownload')}
        </Button>
        {onDone && <Button onPress={onDone}>{t('recoveryDone')}</Button>}
      </div>
    </div>
  );
}

/** Settings → Profile: the section. */
export function TwoFactorSection() {
  const t = useProfileTexts();
  const format = useFormat();
  const query = useQuery(twoFactorQuery);
  const seen = useTwoFactorSeen();
  const state = query.data;
  return (
    <SettingsSection id="section-two-factor" title={t('twoFactor')} description={t('twoFactorHint')}>
      {query.isError ? (
        <Alert>{describeError(query.error).message}</Alert>
      ) : !state ? (
        <p className="text-sm text-stone-600" aria-busy="true">
          {t('twoFactorLoading')}
        </p>
      ) : state.enabled ? (
        <div className="flex flex-col gap-5">
          <p className="text-sm text-stone-800">
            {t('twoFactorOn', { since: state.enabled_at ? format.dateTime(state.enabled_at) : '' })} {t('recoveryLeft', { count: state.recovery_codes_left })}
          </p>
          <RegenerateCodes />
          <DisableTwoFactor />
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-stone-800">{state.required ? t('twoFactorRequired') : t('twoFactorOff')}</p>
          {state.available ? <TwoFactorSetup onDone={seen} /> : <Alert tone="info">{t('twoFactorUnavailable')}</Alert>}
        </div>
      )}
    </SettingsSection>
  );
}

function RegenerateCodes() {
  const t = useProfileTexts();
  const regenerate = useRegenerateRecoveryCodes();
  const { fieldErrors, summary } = useMemo(() => formErrors(regenerate.error, ['code']), [regenerate.error]);
  if (regenerate.data) return <RecoveryCodes codes={regenerate.data} onDone={() => regenerate.reset()} />;
  return (
    <Form
      aria-label={t('recoveryNew')}
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const { code } = fieldsOf(event);
        if (!regenerate.isPending) regenerate.mutate(code.trim());
      }}
    >
      <div>
        <h3 className="text-sm font-semibold text-stone-900">{t('recoveryNew')}</h3>
        <p className="mt-1 text-sm text-stone-600">{t('recoveryNewHint')}</p>
      </div>
      {summary && <Alert>{summary}</Alert>}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField name="code" label={t('twoFactorCodeOrRecovery')} autoComplete="one-time-code" maxLength={32} isRequired onChange={() => regenerate.error && regenerate.reset()} />
        <Button type="submit" variant="secondary" isPending={regenerate.isPending} className="sm:mt-6">
          {t('recoveryNewSubmit')}
        </Button>
      </div>
    </Form>
  );
}

function DisableTwoFactor() {
  const t = useProfileTexts();
  const { user } = useSession();
  const disable = useDisableTwoFactor();
  const { fieldErrors, summary } = useMemo(() => formErrors(disable.error, ['code', 'current_password']), [disable.error]);
  return (
    <Form
      aria-label={t('twoFactorDisable')}
      className="border-t border-stone-200 pt-5"
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const { code, current_password } = fieldsOf(event);
        if (!disable.isPending) disable.mutate({ code: code.trim(), ...(user.has_password ? { current_password } : {}) });
      }}
    >
      <h3 className="text-sm font-semibold text-stone-900">{t('twoFactorDisable')}</h3>
      {summary && <Alert>{summary}</Alert>}
      <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
      <div className="grid gap-3 sm:grid-cols-2">
        {user.has_password && (
          <TextField
            name="current_password"
            type="password"
            label={t('currentPassword')}
            autoComplete="current-password"
            isRequired
            onChange={() => disable.error && disable.reset()}
          />
        )}
        <TextField name="code" label={t('twoFactorCodeOrRecovery')} autoComplete="one-time-code" maxLength={32} isRequired onChange={() => disable.error && disable.reset()} />
      </div>
      <div>
        <Button type="submit" variant="danger" isPending={disable.isPending}>
          {t('twoFactorDisableSubmit')}
        </Button>
      </div>
    </Form>
  );
}
