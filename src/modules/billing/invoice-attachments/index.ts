/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invoiceAttachmentsRoutes } from './routes.ts';
export { invoiceAttachmentsWebRoutes } from './web-routes.ts';
export { attachmentsForMail } from './service.ts';
export type { MailAttachmentChoice } from './service.ts';
export { listInvoiceAttachments } from './service.ts';
export { AttachmentSchema } from './schemas.ts';
