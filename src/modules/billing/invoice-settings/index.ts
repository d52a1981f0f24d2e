/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invoiceSettingsWebRoutes } from './web-routes.ts';
export { formatInvoiceNumber, numberPattern, sequenceStart } from './number-format.ts';
export { businessName } from './rules.ts';
export type { InvoiceSettingsState } from './rules.ts';
export type { InvoiceSettingsPatch } from './schemas.ts';
export type { PresentedInvoiceSettings } from './presenter.ts';
export type { LogoUpload } from './service.ts';
export {
  advanceNumbering,
  getInvoiceSettings,
  invoiceLogoOf,
  invoiceSettingsOf,
  removeInvoiceLogo,
  setInvoiceLogo,
  updateInvoiceSettings,
} from './service.ts';
