/**
 * Client links (issue 25 item 6): a secret URL that shows one record to a client
 * without an account. The token (256 random bits, base64url: 43 characters) is in
 * the URL's fragment, which browsers never send to a server, log, or put in a
 * Referer: the page reads it and asks the public route with it in a POST body.
 */

/** The kinds of record a link can show (client_links.subject_type). */
export const CLIENT_LINK_SUBJECTS = ['invoice', 'estimate'] as const;
export type ClientLinkSubjectType = (typeof CLIENT_LINK_SUBJECTS)[number];

export interface ClientLinkSubject {
  type: ClientLinkSubjectType;
  id: string;
}

/** The web app's page that shows a link's record (web/src/areas/client-page). */
export const CLIENT_PAGE_PATH = '/c';

/** The shape of a token; anything else is unknown without a lookup. */
export const isClientLinkToken = (token: unknown): token is string => typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);

/** The URL a client opens. */
export const clientLinkUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}${CLIENT_PAGE_PATH}#${token}`;
