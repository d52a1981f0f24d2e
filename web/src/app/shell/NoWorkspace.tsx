import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { roleLabel } from '../../api/roles.ts';
import { useSignOut, useSwitchWorkspace, type Session } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Logo } from '../../ui/Logo.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { useTexts } from '../texts.ts';

/**
 * A session whose workspace is gone (the membership was deactivated while signed in):
 * instead of any page, the workspaces still open to the person, or, with none, why
 * there is nothing to show and the way out.
 */
export function NoWorkspace({ session }: { session: Session }) {
  const switchTo = useSwitchWorkspace();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const t = useTexts();
  const { workspaces } = session;

  return (
    <div className="mx-auto flex min-h-dvh max-w-lg flex-col gap-10 px-4 py-10 sm:py-24">
      <header>
        <Logo />
      </header>
      <main className="flex flex-col gap-6">
        <div>
          <PageHeading>{workspaces.length ? t('chooseWorkspace') : t('noWorkspace')}</PageHeading>
          <p className="mt-2 text-stone-700">
            {workspaces.length ? t('noLongerMember') : t('notActiveMember', { email: session.user.email })}
          </p>
        </div>
        {switchTo.error && <Alert>{describeError(switchTo.error).message}</Alert>}
        {workspaces.length > 0 && (
          <ul className="flex flex-col divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
            {workspaces.map((w) => (
              <li key={w.id} className="flex items-center justify-between gap-4 px-4 py-3">
                <span>
                  <span className="block font-medium text-stone-900">{w.name}</span>
                  <span className="block text-sm text-stone-600">{roleLabel(w.role)}</span>
                </span>
                <Button variant="secondary" isPending={switchTo.isPending && switchTo.variables === w.id} onPress={() => switchTo.mutate(w.id, { onSuccess: () => navigate('/') })}>
                  {t('open')} <span className="sr-only">{w.name}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button variant="quiet" onPress={() => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in?reason=signed-out', { replace: true }) })}>
            {t('signOut')}
          </Button>
        </div>
      </main>
    </div>
  );
}
