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

export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { fieldErrors, summary } = formErrors(request.error, ['email']);

  return (
    <AuthLayout
      title="Reset your password"
      intro={sentTo ? undefined : <p>Enter the e-mail address you sign in with. We’ll send you a link to choose a new password.</p>}
      footer={<Link href="/sign-in">Back to sign in</Link>}
    >
      {sentTo ? (
        // The server answers the same whether or not the account exists, and so does this page.
        <Alert tone="success" title="Check your inbox">
          If {sentTo} has an account, a link to choose a new password is on its way. It works once, for a limited time.
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
            <TextField name="email" type="email" label="E-mail address" autoComplete="username" isRequired autoFocus />
            <Button type="submit" isPending={request.isPending} className="w-full">
              Send reset link
            </Button>
          </Form>
        </div>
      )}
    </AuthLayout>
  );
}
