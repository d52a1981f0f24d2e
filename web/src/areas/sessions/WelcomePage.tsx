import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { formErrors } from '../../api/errors.ts';
import { useSession, useSetFirstIdentity } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { TextField } from '../../ui/TextField.tsx';
import { safeNext } from './next.ts';
import { useSessionTexts } from './texts.ts';

/**
 * /welcome: the first owner's first step. The first start made them "Workspace Owner
 * <owner@example.com>", an address no mail reaches; their real name and address are
 * asked for before anything else (the signed-in gate sends them here), and set at once.
 */
export function WelcomePage() {
  const { user } = useSession();
  const save = useSetFirstIdentity();
  const navigate = useNavigate();
  const t = useSessionTexts();
  const next = safeNext(useSearchParams()[0].get('next'));
  const { fieldErrors, summary } = formErrors(save.error, ['first_name', 'last_name', 'email']);
  if (!user.needs_identity && !save.isSuccess) return <Navigate to={next} replace />;

  return (
    <AuthLayout
      title={t('welcome.title')}
      intro={<p>{t('welcome.intro')}</p>}
    >
      <div className="flex flex-col gap-5">
        {summary && <Alert>{summary}</Alert>}
        <Form
          validationErrors={fieldErrors}
          onSubmit={(event) => {
            const f = fieldsOf(event);
            if (save.isPending) return;
            save.mutate(
              { first_name: f.first_name.trim(), last_name: f.last_name.trim(), email: f.email.trim() },
              // A first start's owner has no password yet: choosing one is the next step.
              { onSuccess: (session) => navigate(session.user.has_password ? next : '/settings/password', { replace: true }) },
            );
          }}
        >
          <TextField name="first_name" label={t('firstName')} autoComplete="given-name" isRequired autoFocus maxLength={255} />
          <TextField name="last_name" label={t('lastName')} autoComplete="family-name" maxLength={255} />
          <TextField name="email" type="email" label={t('email')} autoComplete="email" isRequired maxLength={320} />
          <Button type="submit" isPending={save.isPending} className="w-full">
            {t('welcome.submit')}
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
