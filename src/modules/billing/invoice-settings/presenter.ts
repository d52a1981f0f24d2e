import type { InvoiceSettingsState } from './rules.ts';
import type { WorkspaceFacts } from './queries.ts';

/**
 * The settings as the web app and the CLI show them: the writable ones, the
 * logo's description (never its bytes or storage key), and, read-only, what the
 * workspace settings hold that invoices print with them.
 */
export function presentSettings(
  s: InvoiceSettingsState,
  updatedAt: Date | null,
  workspace: WorkspaceFacts,
  logo: { content_type: string; byte_size: number; filename: string; created_at: Date } | null,
) {
  return {
    legal_name: s.legal_name,
    vat_id: s.vat_id,
    registration_number: s.registration_number,
    default_payment_term: s.default_payment_term,
    default_payment_days: s.default_payment_days,
    default_notes: s.default_notes,
    footer: s.footer,
    number_format: s.number_format,
    next_number: s.next_number,
    yearly_reset: s.yearly_reset,
    street: s.street,
    postal_code: s.postal_code,
    city: s.city,
    country_code: s.country_code,
    contact_name: s.contact_name,
    vat_exemption_reason: s.vat_exemption_reason,
    logo: logo && { content_type: logo.content_type, byte_size: logo.byte_size, filename: logo.filename, uploaded_at: logo.created_at.toISOString() },
    workspace_name: workspace.name,
    address: workspace.address,
    tax_id: workspace.tax_id,
    sender_email: workspace.sender_email,
    sender_phone: workspace.sender_phone,
    updated_at: updatedAt?.toISOString() ?? null,
  };
}

export type PresentedInvoiceSettings = ReturnType<typeof presentSettings>;
