import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { passkeyBrowserError, passkeysSupported, usePasskeySignIn } from '../../api/passkeys.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { useSessionTexts } from './texts.ts';

/**
 * "Sign in with a passkey" (issue 28 item 3): alone on the sign-in page (the browser offers the
 * site's passkeys; the device checks its user), or with a sign-in's two-factor challenge as its
 * second step. Goes on to `next` once signed in. Nothing shows where the browser has no WebAuthn.
 */
export function PasskeySignInButton({ next, challenge, label }: { next: string; challenge?: string; label?: string }) {
  const navigate = useNavigate();
  const signIn = usePasskeySignIn();
  const t = useSessionTexts();
  if (!passkeysSupported()) return null;
  const message = signIn.error ? (passkeyBrowserError(signIn.error) ?? describeError(signIn.error).message) : null;
  return (
    <div className="flex flex-col gap-3">
      {message && <Alert>{message}</Alert>}
      <Button
        variant="secondary"
        className="w-full"
        isPending={signIn.isPending}
        onPress={() => signIn.mutate(challenge, { onSuccess: () => navigate(next, { replace: true }) })}
      >
        {label ?? t('passkey.signIn')}
      </Button>
    </div>
  );
}

/** A rule with "or" between two ways in. */
export function OrDivider() {
  const t = useSessionTexts();
  return (
    <div className="flex items-center gap-3 text-xs text-stone-500" role="separator">
      <span className="h-px grow bg-stone-200" />
      {t('passkey.or')}
      <span className="h-px grow bg-stone-200" />
    </div>
  );
}
