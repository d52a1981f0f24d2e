import { useLoaderData } from 'react-router';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { Link } from '../../ui/Link.tsx';
import { LinkProblem } from './LinkProblem.tsx';
import { useSessionTexts } from './texts.ts';

export type ConfirmEmailOutcome = { email: string } | { problem: 'link' } | { problem: 'other'; message: string };

/** /confirm-email#<token>: what opening an e-mail change link did (the route's loader used it, once). */
export function ConfirmEmailPage() {
  const outcome = useLoaderData() as ConfirmEmailOutcome;
  const t = useSessionTexts();
  if ('email' in outcome) {
    return (
      <AuthLayout title={t('confirm.changed')} footer={<Link href="/">{t('confirm.continue')}</Link>}>
        <p className="text-sm text-stone-700">
          {t('confirm.nowBefore')}
          <span className="font-medium text-stone-900">{outcome.email}</span>
          {t('confirm.nowAfter')}
        </p>
      </AuthLayout>
    );
  }
  if (outcome.problem === 'link') return <LinkProblem kind="email" />;
  return (
    <AuthLayout title={t('confirm.failed')} footer={<Link href="/settings/profile">{t('confirm.backToProfile')}</Link>}>
      <p role="alert" className="text-sm text-stone-700">
        {outcome.message}
      </p>
    </AuthLayout>
  );
}
