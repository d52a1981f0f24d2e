import { Link } from '../../ui/Link.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';

const LINK_NAMES = { 'sign-in': 'A sign-in link', reset: 'A password reset link', email: 'An e-mail confirmation link' };
const TITLES = { used: 'This link was already used', expired: 'This link has expired' } as const;

/**
 * What a one-time link that cannot be used shows: why, in words, and the ways on. `state`
 * when the server said which (a reset link is looked up as its page opens); else the
 * redemption's answer, which says only that the link is invalid, expired or used.
 */
export function LinkProblem({ kind, state }: { kind: 'sign-in' | 'reset' | 'email'; state?: 'used' | 'expired' | 'invalid' }) {
  const why =
    state === 'used' ? 'It worked once already.' : state === 'expired' ? 'It is too old.' : 'It is incomplete, has expired, was replaced by a newer one, or was already used.';
  return (
    <AuthLayout
      title={(state && state !== 'invalid' && TITLES[state]) || 'This link can’t be used'}
      intro={
        <p>
          {why} {LINK_NAMES[kind]} works once, for a limited time.
        </p>
      }
    >
      <ul className="flex flex-col gap-3 text-sm">
        {kind === 'reset' ? (
          <li>
            <Link href="/forgot-password">Request a new reset link</Link>
          </li>
        ) : kind === 'email' ? (
          <li>
            <Link href="/settings/profile">Ask for a new link on your profile</Link>
          </li>
        ) : (
          <li>Ask the person who sent you the link for a new one.</li>
        )}
        <li>
          <Link href="/sign-in">Sign in with your password</Link>
        </li>
        {kind === 'sign-in' && (
          <li>
            <Link href="/forgot-password">Forgot your password?</Link>
          </li>
        )}
      </ul>
    </AuthLayout>
  );
}
