import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import { call } from './call.ts';
import { acceptSignIn } from './session.ts';
import { t } from './texts.ts';

/**
 * Passkeys in the browser (issue 28 item 3): the WebAuthn ceremonies through
 * @simplewebauthn/browser, loaded on the first use so the sign-in page's first load does not
 * carry it. Shared by the sign-in pages (a passkey alone, or as the second step) and the
 * profile (adding one).
 */

type Options = Record<string, unknown>;

/** Whether this browser can use passkeys at all (WebAuthn). */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

const library = () => import('@simplewebauthn/browser');

/** navigator.credentials.create for the server's registration options, as JSON. */
export async function createPasskey(options: Options) {
  const { startRegistration } = await library();
  return startRegistration({ optionsJSON: options as never });
}

/** navigator.credentials.get for the server's sign-in options, as JSON. */
export async function signWithPasskey(options: Options) {
  const { startAuthentication } = await library();
  return startAuthentication({ optionsJSON: options as never });
}

/**
 * What to tell the person when the browser ended a ceremony: they cancelled (or it timed out),
 * the passkey is on this device already, or the browser refused the site; null when the error
 * is not the browser's (the server's errors say themselves what went wrong).
 */
export function passkeyBrowserError(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  switch (error.name) {
    case 'NotAllowedError':
    case 'AbortError':
      return t('passkeys.cancelled');
    case 'InvalidStateError':
      return t('passkeys.exists');
    case 'SecurityError':
      return t('passkeys.insecure');
    case 'NotSupportedError':
      return t('passkeys.unsupported');
    default:
      return null;
  }
}

/** Signs in with a passkey: alone, or with a sign-in's two-factor challenge as its second step. */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (challenge?: string) => {
      const { options } = await call(api.POST('/web/api/session/passkey-options', { body: challenge ? { challenge } : {} }));
      const credential = await signWithPasskey(options as Options);
      return call(api.POST('/web/api/session/passkey', { body: { credential: credential as never, ...(challenge ? { challenge } : {}) } }));
    },
    onSuccess: (session) => acceptSignIn(queryClient, session),
  });
}
