import { isChallenge } from '../../api/session.ts';
import { useQueryClient } from '@tanstack/react-query';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useAcceptInvitation, useInvitationLookup } from './api.ts';
import { memberTexts, roleInSentence, useMemberTexts } from './texts.ts';

const passwordProblem = (v: string) => (v.length > 0 && v.length < 12 ? memberTexts('accept.passwordProblem') : null);

/**
 * /invitations/accept#<token>: the token is in the fragment (never in a server log or a
 * Referer). Looks the invitation up, then sets up the account (names and a password)
 * or asks the existing account's password, and signs in.
 */
export function AcceptInvitationPage() {
  const [token] = useState(() => window.location.hash.slice(1));
  const queryClient = useQueryClient();
  const accept = useAcceptInvitation(queryClient);
  const lookup = useInvitationLookup(token, { accepted: accept.isSuccess });
  const navigate = useNavigate();
  const t = useMemberTexts();

  const invalid = !token || describeError(lookup.error).code === 'link_invalid' || describeError(accept.error).code === 'link_invalid';
  if (invalid) {
    return (
      <AuthLayout title={t('accept.unusableTitle')}>
        <p className="text-sm text-stone-600">{t('accept.unusable')}</p>
        <p className="mt-4 text-sm">
          <Link href="/sign-in">{t('accept.signIn')}</Link>
        </p>
      </AuthLayout>
    );
  }
  if (lookup.isError) {
    return (
      <AuthLayout title={t('accept.joinTitle')}>
        <Alert>{describeError(lookup.error).message}</Alert>
      </AuthLayout>
    );
  }
  if (!lookup.data) {
    return (
      <AuthLayout title={t('accept.joinTitle')}>
        <div aria-busy="true" className="h-48">
          <span className="sr-only">{t('accept.loading')}</span>
        </div>
      </AuthLayout>
    );
  }

  const invitation = lookup.data;
  const newAccount = !invitation.account_exists;
  const fields = newAccount ? ['first_name', 'last_name', 'password'] : ['password'];
  const { fieldErrors, summary } = formErrors(accept.error, fields);
  return (
    <AuthLayout
      title={t('accept.joinNamed', { workspace: invitation.workspace_name })}
      intro={
        <p>
          {invitation.invited_by
            ? t('accept.invitedBy', { name: invitation.invited_by.name, role: roleInSentence(invitation.role) })
            : t('accept.invited', { role: roleInSentence(invitation.role) })}
          <span className="font-medium text-stone-800">{invitation.email}</span>
          {newAccount ? t('accept.newAccount') : t('accept.existingAccount')}
        </p>
      }
    >
      <div className="flex flex-col gap-5">
        {summary && <Alert>{summary}</Alert>}
        <Form
          validationErrors={fieldErrors}
          onSubmit={(event) => {
            const f = fieldsOf(event);
            if (accept.isPending) return;
            const body = newAccount
              ? { token, first_name: f.first_name.trim(), last_name: f.last_name.trim(), password: f.password }
              : { token, password: f.password };
            accept.mutate(body, {
              onSuccess: (answer) =>
                isChallenge(answer)
                  ? navigate('/sign-in/code', { replace: true })
                  : navigate('/', { replace: true, state: { notice: t('accept.welcome', { workspace: invitation.workspace_name }) } }),
            });
          }}
        >
          <input type="email" name="username" autoComplete="username" value={invitation.email} readOnly hidden />
          {newAccount && (
            <>
              <TextField name="first_name" label={t('accept.firstName')} autoComplete="given-name" isRequired autoFocus maxLength={255} />
              <TextField name="last_name" label={t('accept.lastName')} autoComplete="family-name" maxLength={255} />
            </>
          )}
          <TextField
            name="password"
            type="password"
            label={newAccount ? t('accept.choosePassword') : t('accept.password')}
            description={newAccount ? t('accept.passwordHint') : undefined}
            autoComplete={newAccount ? 'new-password' : 'current-password'}
            isRequired
            autoFocus={!newAccount}
            validate={newAccount ? passwordProblem : undefined}
          />
          <Button type="submit" isPending={accept.isPending} className="w-full">
            {t('accept.submit')}
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
