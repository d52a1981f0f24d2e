/**
 * A Sheaf server's address as people configure it (SHEAF_URL, a profile,
 * `sheaf login --url`), for every HTTP client of the API: the person commands
 * and `sheaf mcp`. In a file of its own, free of imports, so both use the one
 * rule without loading each other.
 */

/** The address is not an http(s) URL: bad input (exit 2), with what to write instead. */
export class BadServerUrl extends Error {}

/**
 * The server's base address: http:// or https:// required (a bare host:port
 * would otherwise be taken as a URL scheme and fail far from its cause). A
 * trailing slash or /api/v2, the API's base copied from the docs, is dropped:
 * the clients put /api/v2 before every path themselves.
 */
export function serverUrl(raw: string, source: string): string {
  const text = raw.trim();
  if (!/^https?:\/\//i.test(text)) {
    const guess = /^[\w.-]+(:\d+)?(\/\S*)?$/.test(text) ? ` (did you mean http://${text}?)` : '';
    throw new BadServerUrl(`${source} must be an http:// or https:// URL, not '${raw}'${guess}.`);
  }
  try {
    new URL(text);
  } catch {
    throw new BadServerUrl(`${source} is not a valid URL: '${raw}'.`);
  }
  return text.replace(/\/+$/, '').replace(/\/api\/v2$/i, '').replace(/\/+$/, '');
}

/**
 * The URL's host is this machine (localhost, 127.x, ::1): single sign-on may talk plain HTTP to
 * such an issuer (a development provider), and e-mail links to it reach nobody else.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
