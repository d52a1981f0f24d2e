/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { EVENT_TYPES } from './rules.ts';
export type { EventType } from './rules.ts';
export { createEndpoint, deleteEndpoint, listEndpoints, rotateSecret, updateEndpoint } from './service.ts';
export type { WebhookDeps } from './service.ts';
export { webhooksWebRoutes } from './web-routes.ts';
export { fanOutEvents } from './fan-out.ts';
export { deliverDueWebhooks, startWebhookWorker } from './worker.ts';
export type { DeliveryRunSummary, WebhookWorkerDeps } from './worker.ts';
