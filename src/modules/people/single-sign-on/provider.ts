import * as oidc from 'openid-client';
import { isLoopbackUrl } from '../../../server-url.ts';

/**
 * The identity provider, through openid-client (v6): discovery, the authorization URL with
 * PKCE, state and nonce, and the code exchange, which validates the ID token (signature,
 * issuer, audience, nonce, expiry). HTTPS only, except to an issuer on this machine
 * (localhost, 127.0.0.0/8, ::1), where a development or test provider runs.
 */

/** Seconds a request to the provider may take. */
const TIMEOUT_S = 10;

export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** A failure talking to the provider, or an answer that is not a valid sign-in. `expired`: the ID token's time checks failed. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'expired' | 'invalid',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The provider's configuration by discovery; ProviderError('unreachable') when it cannot be read or is no OpenID provider. */
export async function discover(client: ProviderClient, now: () => Date): Promise<oidc.Configuration> {
  let url: URL;
  try {
    url = new URL(client.issuer);
  } catch {
    throw new ProviderError('The issuer is not a URL.', 'unreachable');
  }
  const insecure = url.protocol === 'http:' && isLoopbackUrl(url);
  if (url.protocol !== 'https:' && !insecure) throw new ProviderError('The issuer must be an https:// URL.', 'unreachable');
  try {
    // The ID token's time checks use Sheaf's clock (config.clock), as every other expiry does.
    const metadata: Partial<oidc.ClientMetadata> = { client_secret: client.clientSecret, [oidc.clockSkew]: Math.round((now().getTime() - Date.now()) / 1000) };
    return await oidc.discovery(url, client.clientId, metadata, undefined, {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
      timeout: TIMEOUT_S,
    });
  } catch (err) {
    throw new ProviderError(`The issuer could not be read: ${(err as Error).message}`, 'unreachable', { cause: err });
  }
}

export interface Checks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export const newChecks = (): Checks => ({ state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() });

export async function authorizationUrl(config: oidc.Configuration, redirectUri: string, checks: Checks): Promise<URL> {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
    state: checks.state,
    nonce: checks.nonce,
  });
}

/** The claims a sign-in uses, from a validated ID token. */
export interface Identity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

/** Exchanges the code (PKCE) and validates the ID token; ProviderError on any failure. */
export async function exchangeCode(config: oidc.Configuration, callbackUrl: URL, checks: Checks): Promise<Identity> {
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') throw new ProviderError('The ID token has expired.', 'expired', { cause: err });
    throw new ProviderError(`The provider did not complete the sign-in: ${(err as Error).message}`, 'invalid', { cause: err });
  }
  const claims = tokens.claims();
  if (!claims) throw new ProviderError('The provider sent no ID token.', 'invalid');
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(claims.email)?.toLowerCase() ?? null,
    emailVerified: claims.email_verified === true,
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
    name: text(claims.name),
  };
}
