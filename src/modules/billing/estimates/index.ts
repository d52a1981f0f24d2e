/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { estimatesWebRoutes } from './web-routes.ts';
export { estimateRenderers, loadDocument as loadEstimateDocument, renderEstimatePdf } from './pdf.ts';
export type { EstimateDocument } from './pdf.ts';
export { DECLINE_REASON_MAX, recordClientAnswer } from './service.ts';
export { estimateVersion, presentEstimate } from './presenter.ts';
export { pdfFilename as estimatePdfFilename } from './rules.ts';
export type { EstimateAnswer } from './rules.ts';
export type { PresentedEstimate } from './presenter.ts';
