/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { audit, auditAccountEvent, auditFailedSignIn, auditSignIn } from './service.ts';
export type { SignInRecord } from './service.ts';
export { SESSIONS_ENDED } from './rules.ts';
export { AUDIT_ACTIONS, type AuditAction } from './actions.ts';
export { auditWebRoutes } from './web-routes.ts';
