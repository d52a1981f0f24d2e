import { useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { useChangePassword, useSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { passwordProblem } from './password-rules.ts';
import { useSessionTexts } from './texts.ts';

/** Settings → Password: set a first password (after a one-time link) or change it. */
export function PasswordPage() {
  const { user } = useSession();
  const change = useChangePassword();
  const t = useSessionTexts();
  // Read once: saving a first password flips has_password, and the page should then say "saved", not turn into "change".
  const [firstPassword] = useState(!user.has_password);
  const [saved, setSaved] = useState(0);
  const fields = firstPassword ? ['password'] : ['current_password', 'password'];
  const { fieldErrors, summary } = formErrors(change.error, fields);

  return (
    <div className="max-w-md">
      <p className="text-sm font-medium text-stone-500">{t('passwordPage.settings')}</p>
      <PageHeading className="mt-1">{firstPassword ? t('passwordPage.setTitle') : t('passwordPage.changeTitle')}</PageHeading>
      <p className="mt-2 text-sm text-stone-600">
        {firstPassword ? t('passwordPage.setIntro', { email: user.email }) : t('passwordPage.changeIntro', { email: user.email })}
      </p>

      <div className="mt-8 flex flex-col gap-5">
        {firstPassword && saved > 0 ? (
          <Alert tone="success" title={t('passwordPage.isSet')}>
            <p>
              {t('passwordPage.nextTime')}
              <Link href="/">{t('passwordPage.continue')}</Link>
            </p>
          </Alert>
        ) : (
          <>
            {saved > 0 && !change.error && <Alert tone="success">{t('passwordPage.changed')}</Alert>}
            {summary && <Alert>{summary}</Alert>}
            {/* A new key empties the fields after a save. */}
            <Form
              key={saved}
              validationErrors={fieldErrors}
              onSubmit={(event) => {
                const { current_password, password } = fieldsOf(event);
                if (change.isPending) return;
                change.mutate(firstPassword ? { password } : { current_password, password }, { onSuccess: () => setSaved((n) => n + 1) });
              }}
            >
              {/* Tells password managers which account the new password belongs to. */}
              <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
              {!firstPassword && (
                <TextField name="current_password" type="password" label={t('passwordPage.current')} autoComplete="current-password" isRequired />
              )}
              <TextField
                name="password"
                type="password"
                label={firstPassword ? t('password') : t('passwordPage.new')}
                description={t('atLeast')}
                autoComplete="new-password"
                isRequired
                validate={passwordProblem}
              />
              <div>
                <Button type="submit" isPending={change.isPending}>
                  {firstPassword ? t('passwordPage.set') : t('passwordPage.change')}
                </Button>
              </div>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
