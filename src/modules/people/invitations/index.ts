/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invitationsWebRoutes } from './web-routes.ts';
export { inviteImportedMember } from './service.ts';
