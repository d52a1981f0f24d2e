import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession, useSignOut } from '../../api/session.ts';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { Button } from '../../ui/Button.tsx';
import { useProfileTexts } from './texts.ts';
import { TwoFactorSetup } from './TwoFactor.tsx';
import { AddPasskey } from './Passkeys.tsx';
import { passkeysSupported } from '../../api/passkeys.ts';

/** Only paths of this app (as the sign-in's safeNext: no other origin, no //host or /\host, no control characters). */
const within = (next: string | null) =>
  next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && ![...next].some((c) => c.charCodeAt(0) < 0x20) ? next : '/';

/**
 * /two-factor-setup: the workspace requires two-factor sign-in and the person has none yet.
 * The session gate sends every page here (the server answers 403 two_factor_enrolment_required
 * to anything else); once the codes are set up and the recovery codes kept, on to the page asked for.
 */
export function TwoFactorRequiredPage() {
  const t = useProfileTexts();
  const { workspace, two_factor } = useSession();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const next = within(useSearchParams()[0].get('next'));
  // Opened without the requirement (a bookmark, the address typed): nothing holds the person here, and the
  // page would claim a rule the workspace does not have. Decided as the page opens: once the codes are
  // turned on here the requirement is met, and the recovery codes must still be shown.
  const [notHeld] = useState(() => !two_factor.enrolment_required);
  if (notHeld) return <Navigate to={next} replace />;
  return (
    <AuthLayout
      title={t('twoFactorStart')}
      intro={<p>{t('twoFactorRequiredBy', { workspace: workspace?.name ?? '' })}</p>}
      footer={
        <Button variant="quiet" onPress={() => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in?reason=signed-out', { replace: true }) })}>
          {t('signOutInstead')}
        </Button>
      }
    >
      <div className="flex flex-col gap-6">
        <TwoFactorSetup onDone={() => navigate(next, { replace: true })} />
        {passkeysSupported() && (
          <section aria-labelledby="passkey-instead" className="flex flex-col gap-3 border-t border-stone-200 pt-5">
            <h2 id="passkey-instead" className="text-sm font-semibold text-stone-900">
              {t('passkeyInstead')}
            </h2>
            <p className="text-sm text-stone-700">{t('passkeyInsteadHint')}</p>
            <AddPasskey onAdded={() => navigate(next, { replace: true })} />
          </section>
        )}
      </div>
    </AuthLayout>
  );
}
