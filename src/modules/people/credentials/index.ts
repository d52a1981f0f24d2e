/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { credentialsWebRoutes } from './web-routes.ts';
export { ROTATION_OVERLAP_MS, createKey, listKeys, revokeKey, rotateKey } from './service.ts';
