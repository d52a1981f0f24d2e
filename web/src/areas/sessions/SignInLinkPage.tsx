import { LinkProblem } from './LinkProblem.tsx';

/** Shown only when the link could not be used: a usable one signs in and moves on in the route's loader. */
export function SignInLinkPage() {
  return <LinkProblem kind="sign-in" />;
}
