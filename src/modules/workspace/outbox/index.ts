/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { OUTBOX_STATUSES, listOutbox, retryOutbox } from './service.ts';
export type { OutboxListing, OutboxStatus } from './service.ts';
