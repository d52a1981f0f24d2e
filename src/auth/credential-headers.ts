/**
 * How the credential headers are read: the one parse that both authentication
 * and the rate limiter use, so every spelling that authenticates as a
 * credential is also counted as that credential.
 */

type Header = string | string[] | undefined;

const BEARER = /^\s*Bearer\s+(\S+)\s*$/i;

/**
 * The token of `Authorization: Bearer <token>`: the scheme in any case, any
 * whitespace around the token. Undefined when the header is absent, repeated
 * or of another form.
 */
export function bearerToken(authorization: Header): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  return BEARER.exec(authorization)?.[1];
}

/**
 * The workspace id of `Service-Account-Id`, trimmed and lower-cased: ids are
 * UUIDs, which the database compares without regard to case, so `ABC…` and
 * `abc…` name the same workspace. Undefined when absent, blank or repeated.
 */
export function accountId(header: Header): string | undefined {
  if (typeof header !== 'string') return undefined;
  return header.trim().toLowerCase() || undefined;
}
