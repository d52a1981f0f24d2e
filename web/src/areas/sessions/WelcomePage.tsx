import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import { formErrors } from '../../api/errors.ts';
import { sessionQuery, useSession, useSetFirstIdentity } from '../../api/session.ts';
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
 * <owner@example.com>", an address no mail reaches, in a workspace named "My workspace";
 * their real name and address, and the business's name (the sender of their invoices), are
 * asked for before anything else (the signed-in gate sends them here), and set at once.
 */
export function WelcomePage() {
  const { user, workspace } = useSession();
  const save = useSetFirstIdentity();
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (name: string) => call(api.PATCH('/web/api/workspace', { body: { name } })),
    onSuccess: () => queryClient.invalidateQueries(sessionQuery),
  });
  const navigate = useNavigate();
  const t = useSessionTexts();
  const next = safeNext(useSearchParams()[0].get('next'));
  const identity = formErrors(save.error, ['first_name', 'last_name', 'email']);
  const named = formErrors(rename.error, ['name']);
  const fieldErrors = { ...identity.fieldErrors, ...(named.fieldErrors?.name ? { workspace_name: named.fieldErrors.name } : {}) };
  const summary = identity.summary ?? named.summary;
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
            if (save.isPending || rename.isPending) return;
            const name = f.workspace_name.trim();
            // A first start's owner has no password yet: choosing one is the next step.
            const onward = (hasPassword: boolean) => navigate(hasPassword ? next : '/settings/password', { replace: true });
            const renamed = (hasPassword: boolean) =>
              name === workspace?.name ? onward(hasPassword) : rename.mutate(name, { onSuccess: () => onward(hasPassword) });
            // Sent again after a refused business name, the identity is set already: only the name goes.
            if (save.isSuccess) renamed(save.data.user.has_password);
            else save.mutate({ first_name: f.first_name.trim(), last_name: f.last_name.trim(), email: f.email.trim() }, { onSuccess: (session) => renamed(session.user.has_password) });
          }}
        >
          <TextField name="first_name" label={t('firstName')} autoComplete="given-name" isRequired autoFocus maxLength={255} />
          <TextField name="last_name" label={t('lastName')} autoComplete="family-name" maxLength={255} />
          <TextField name="email" type="email" label={t('email')} autoComplete="email" isRequired maxLength={320} />
          {workspace && (
            <TextField
              name="workspace_name"
              label={t('welcome.businessName')}
              description={t('welcome.businessNameHint')}
              defaultValue={workspace.name}
              autoComplete="organization"
              isRequired
              maxLength={255}
            />
          )}
          <Button type="submit" isPending={save.isPending || rename.isPending} className="w-full">
            {t('welcome.submit')}
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
