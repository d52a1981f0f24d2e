/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { estimatesWebRoutes } from './web-routes.ts';
export { estimateRenderers } from './pdf.ts';
export { recordClientAnswer } from './service.ts';
export type { PresentedEstimate } from './presenter.ts';
