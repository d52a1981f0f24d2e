/**
 * Single sign-on's pure rules (docs/decisions.md, "Single sign-on (issue 28 item 1)"):
 * the roles people join with, e-mail domains, where the browser goes afterwards, and the
 * codes a failed sign-in sends to the sign-in page.
 */

/** The roles a workspace may give people who join by signing in: never owner (nor client). */
export const NEW_MEMBER_ROLES = ['member', 'manager', 'administrator'] as const;
export type NewMemberRole = (typeof NEW_MEMBER_ROLES)[number];

/** Why a sign-in through the provider failed: `/sign-in?sso_error=<code>`. */
export const SSO_ERRORS = ['state', 'expired', 'denied', 'domain', 'provider', 'unverified', 'deactivated', 'elsewhere'] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** The one redirect URI of a server at `baseUrl`, to register at every provider (every workspace shares it). */
export const redirectUriOf = (baseUrl: string) => `${baseUrl}/web/api/sso/callback`;

/** How long a started sign-in waits for the provider's answer. */
export const PENDING_LOGIN_MS = 10 * 60 * 1000;

const DOMAIN_SHAPE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A domain as stored: lower case, no leading `@` or trailing dot; null when it is no domain name. */
export function normalDomain(value: string): string | null {
  const d = value.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  return DOMAIN_SHAPE.test(d) ? d : null;
}

/** The domain of an e-mail address (lower case), or null. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  return normalDomain(email.slice(at + 1));
}

/**
 * Where to go after signing in: a path of this server (same origin), else home. Refuses
 * `//host`, `/\host`, schemes, control characters, and the sign-in page itself.
 */
export function safeNext(value: string | undefined | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\\')) return '/';
  if (value === '/sign-in' || value.startsWith('/sign-in?') || value.startsWith('/sign-in/')) return '/';
  return value;
}

