import { Link } from '../../ui/Link.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { useSessionTexts } from './texts.ts';

/**
 * What a one-time link that cannot be used shows: why, in words, and the ways on. `state`
 * when the server said which (a reset link is looked up as its page opens); else the
 * redemption's answer, which says only that the link is invalid, expired or used.
 */
export function LinkProblem({ kind, state }: { kind: 'sign-in' | 'reset' | 'email'; state?: 'used' | 'expired' | 'invalid' }) {
  const t = useSessionTexts();
  const why = state === 'used' ? t('link.whyUsed') : state === 'expired' ? t('link.whyExpired') : t('link.whyInvalid');
  return (
    <AuthLayout
      title={state === 'used' ? t('link.used') : state === 'expired' ? t('link.expired') : t('link.unusable')}
      intro={
        <p>
          {why} {t(`link.names.${kind}`)}
        </p>
      }
    >
      <ul className="flex flex-col gap-3 text-sm">
        {kind === 'reset' ? (
          <li>
            <Link href="/forgot-password">{t('link.newReset')}</Link>
          </li>
        ) : kind === 'email' ? (
          <li>
            <Link href="/settings/profile">{t('link.newEmail')}</Link>
          </li>
        ) : (
          <li>{t('link.askSender')}</li>
        )}
        <li>
          <Link href="/sign-in">{t('link.withPassword')}</Link>
        </li>
        {kind === 'sign-in' && (
          <li>
            <Link href="/forgot-password">{t('forgotPassword')}</Link>
          </li>
        )}
      </ul>
    </AuthLayout>
  );
}
