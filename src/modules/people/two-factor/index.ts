/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { twoFactorWebRoutes } from './web-routes.ts';
export { resetTwoFactor } from './service.ts';
