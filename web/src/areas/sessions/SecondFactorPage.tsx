import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { forgetChallenge, pendingChallenge, useSecondFactorSignIn } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { safeNext } from './next.ts';
import { OrDivider, PasskeySignInButton } from './PasskeySignIn.tsx';
import { useSessionTexts } from './texts.ts';

/**
 * /sign-in/code: the second step of signing in with two-factor codes, after a password, a
 * sign-in link, a reset or an invitation. The challenge is in this tab's memory (the loader
 * sent a reload back to sign-in); a used or expired one says so and leads back.
 */
export function SecondFactorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [pending] = useState(() => pendingChallenge());
  const challenge = pending?.challenge ?? '';
  const methods = pending?.methods ?? ['totp'];
  const next = safeNext(params.get('next'));
  const signIn = useSecondFactorSignIn();
  const t = useSessionTexts();
  const { code } = describeError(signIn.error);
  // One object per error: a new one each render would bring a cleared server error back (React Aria compares them).
  const { fieldErrors, summary } = useMemo(() => formErrors(signIn.error, ['code']), [signIn.error]);
  const expired = code === 'unauthorized';
  return (
    <AuthLayout title={t('code.title')} footer={<Link href="/sign-in" onPress={forgetChallenge}>{t('backToSignIn')}</Link>}>
      <div className="flex flex-col gap-5">
        {expired ? (
          <Alert>{t('code.expired')}</Alert>
        ) : code === 'invalid_code' ? (
          <Alert>{t('code.wrong')}</Alert>
        ) : (
          summary && <Alert>{summary}</Alert>
        )}
        {methods.includes('totp') ? (
          <>
            <p className="text-sm text-stone-700">{t('code.intro')}</p>
            <Form
              validationErrors={fieldErrors}
              onSubmit={(event) => {
                const { code: value } = fieldsOf(event);
                if (signIn.isPending || expired) return;
                signIn.mutate({ challenge, code: value.trim() }, { onSuccess: () => navigate(next, { replace: true }) });
              }}
            >
              <TextField
                name="code"
                label={t('code.label')}
                description={t('code.hint')}
                autoComplete="one-time-code"
                maxLength={32}
                isRequired
                autoFocus
                // A new code forgets the server's error, or the browser would still hold the field invalid for one more press.
                onChange={() => signIn.error && !expired && signIn.reset()}
              />
              <Button type="submit" isPending={signIn.isPending} isDisabled={expired} className="w-full">
                {t('code.submit')}
              </Button>
            </Form>
          </>
        ) : (
          <p className="text-sm text-stone-700">{t('passkey.only')}</p>
        )}
        {methods.includes('passkey') && !expired && (
          <>
            {methods.includes('totp') && <OrDivider />}
            <PasskeySignInButton next={next} challenge={challenge} label={methods.includes('totp') ? t('passkey.instead') : t('passkey.confirm')} />
          </>
        )}
      </div>
    </AuthLayout>
  );
}
