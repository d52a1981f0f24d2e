import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { formErrors } from '../../api/errors.ts';
import { isChallenge, useSignIn } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { safeNext } from './next.ts';
import { OrDivider, PasskeySignInButton } from './PasskeySignIn.tsx';
import { SingleSignOn, SingleSignOnError } from './SingleSignOn.tsx';
import { useSessionTexts } from './texts.ts';

const FIELDS = ['email', 'password'] as const;

export function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const { fieldErrors, summary } = formErrors(signIn.error, FIELDS);
  const reason = params.get('reason');
  const t = useSessionTexts();
  // The typed address, for single sign-on's question: does its domain sign in through a provider?
  const [email, setEmail] = useState('');

  return (
    <AuthLayout title={t('signIn.title')} footer={<Link href="/forgot-password">{t('forgotPassword')}</Link>}>
      <div className="flex flex-col gap-5">
        {reason === 'ended' && !signIn.error && <Alert tone="info">{t('signIn.ended')}</Alert>}
        {reason === 'signed-out' && !signIn.error && <Alert tone="success">{t('signIn.signedOut')}</Alert>}
        {summary && <Alert>{summary}</Alert>}
        <SingleSignOnError />
        <Form
          validationErrors={fieldErrors}
          onSubmit={(event) => {
            const { email, password } = fieldsOf(event);
            if (signIn.isPending) return; // Enter again while the first press is on its way
            const next = safeNext(params.get('next'));
            signIn.mutate(
              { email, password },
              // Two-factor codes: the code page asks for it, then goes on to `next`.
              { onSuccess: (answer) => navigate(isChallenge(answer) ? `/sign-in/code${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}` : next, { replace: true }) },
            );
          }}
        >
          <TextField name="email" type="email" label={t('email')} autoComplete="username" isRequired autoFocus onChange={setEmail} />
          <TextField name="password" type="password" label={t('password')} autoComplete="current-password" isRequired />
          <Button type="submit" isPending={signIn.isPending} className="w-full">
            {t('signIn.submit')}
          </Button>
        </Form>
        <OrDivider />
        <SingleSignOn email={email} />
        <PasskeySignInButton next={safeNext(params.get('next'))} />
      </div>
    </AuthLayout>
  );
}
