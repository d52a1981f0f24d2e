/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { passkeysWebRoutes } from './web-routes.ts';
export { listPasskeys } from './service.ts';
export { Passkey } from './schemas.ts';
