import { useState } from 'react';
import { useLoaderData, useNavigate } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { isChallenge, useResetPassword, type ResetLinkState } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { LinkProblem } from './LinkProblem.tsx';
import { passwordProblem } from './password-rules.ts';
import { useSessionTexts } from './texts.ts';

/**
 * /reset-password#<token>: the token is in the fragment, which never reaches a server log or a Referer.
 * The loader asked whether the link still works: a used or expired one says so at once, not after typing.
 */
export function ResetPasswordPage() {
  const state = useLoaderData() as ResetLinkState;
  const [token] = useState(() => window.location.hash.slice(1));
  const reset = useResetPassword();
  const navigate = useNavigate();
  const t = useSessionTexts();
  if (state !== 'usable') return <LinkProblem kind="reset" state={state} />;
  // Used meanwhile (another tab), or expired while the page was open.
  if (describeError(reset.error).code === 'link_invalid') return <LinkProblem kind="reset" />;
  const { fieldErrors, summary } = formErrors(reset.error, ['password']);

  return (
    <AuthLayout title={t('reset.title')} footer={<Link href="/sign-in">{t('backToSignIn')}</Link>}>
      <div className="flex flex-col gap-5">
        {summary && <Alert>{summary}</Alert>}
        <Form
          validationErrors={fieldErrors}
          onSubmit={(event) => {
            const { password } = fieldsOf(event);
            if (reset.isPending) return;
            reset.mutate(
              { token, password },
              {
                onSuccess: (answer) =>
                  isChallenge(answer) ? navigate('/sign-in/code', { replace: true }) : navigate('/', { replace: true, state: { notice: t('reset.saved') } }),
              },
            );
          }}
        >
          <TextField
            name="password"
            type="password"
            label={t('reset.newPassword')}
            description={t('atLeast')}
            autoComplete="new-password"
            isRequired
            autoFocus
            validate={passwordProblem}
          />
          <Button type="submit" isPending={reset.isPending} className="w-full">
            {t('reset.submit')}
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
