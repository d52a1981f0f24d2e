/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { clientRef } from './presenter.ts';
export { clientsRoutes } from './routes.ts';
export { PAYMENT_TERMS } from './rules.ts';
