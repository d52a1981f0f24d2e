import { useLoaderData } from 'react-router';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { Link } from '../../ui/Link.tsx';
import { LinkProblem } from './LinkProblem.tsx';

export type ConfirmEmailOutcome = { email: string } | { problem: 'link' } | { problem: 'other'; message: string };

/** /confirm-email#<token>: what opening an e-mail change link did (the route's loader used it, once). */
export function ConfirmEmailPage() {
  const outcome = useLoaderData() as ConfirmEmailOutcome;
  if ('email' in outcome) {
    return (
      <AuthLayout title="Your e-mail address is changed" footer={<Link href="/">Continue to Sheaf</Link>}>
        <p className="text-sm text-stone-700">
          From now on you sign in with <span className="font-medium text-stone-900">{outcome.email}</span>. Your old address got a note
          about the change.
        </p>
      </AuthLayout>
    );
  }
  if (outcome.problem === 'link') return <LinkProblem kind="email" />;
  return (
    <AuthLayout title="Your e-mail address could not be changed" footer={<Link href="/settings/profile">Back to your profile</Link>}>
      <p role="alert" className="text-sm text-stone-700">
        {outcome.message}
      </p>
    </AuthLayout>
  );
}
