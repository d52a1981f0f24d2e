/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { clientRef } from './presenter.ts';
export { clientsRoutes } from './routes.ts';
// What a client's owner may write: invoicing reads a client's row by this list (billing/invoices findClient).
export { CLIENT_WRITABLE, PAYMENT_TERMS } from './rules.ts';
