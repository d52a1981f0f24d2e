import { useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { useRequestPasswordReset } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { useSessionTexts } from './texts.ts';

export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const t = useSessionTexts();
  const { fieldErrors, summary } = formErrors(request.error, ['email']);

  return (
    <AuthLayout
      title={t('forgot.title')}
      intro={sentTo ? undefined : <p>{t('forgot.intro')}</p>}
      footer={<Link href="/sign-in">{t('backToSignIn')}</Link>}
    >
      {sentTo ? (
        // The server answers the same whether or not the account exists, and so does this page.
        <Alert tone="success" title={t('forgot.checkInbox')}>
          {t('forgot.sent', { email: sentTo })}
        </Alert>
      ) : (
        <div className="flex flex-col gap-5">
          {summary && <Alert>{summary}</Alert>}
          <Form
            validationErrors={fieldErrors}
            onSubmit={(event) => {
              const { email } = fieldsOf(event);
              if (request.isPending) return;
              request.mutate(email, { onSuccess: () => setSentTo(email) });
            }}
          >
            <TextField name="email" type="email" label={t('email')} autoComplete="username" isRequired autoFocus />
            <Button type="submit" isPending={request.isPending} className="w-full">
              {t('forgot.submit')}
            </Button>
          </Form>
        </div>
      )}
    </AuthLayout>
  );
}
