/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { CLIENT_PAGE_PATH, isClientLinkToken } from './rules.ts';
export type { ClientLinkSubject, ClientLinkSubjectType } from './rules.ts';
export { clientLinkSummary, makeClientLink, openClientLink, revokeClientLinks } from './service.ts';
export type { MadeLink, OpenedLink } from './service.ts';
