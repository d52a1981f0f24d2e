/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { singleSignOnWebRoutes } from './web-routes.ts';
export { removeSingleSignOn, singleSignOnState } from './service.ts';
export { redirectUriOf } from './rules.ts';
