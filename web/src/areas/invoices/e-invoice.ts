import { HttpError } from '../../api/call.ts';
import type { useEInvoiceTexts } from './e-invoice-texts.ts';

/**
 * E-invoices (EN 16931) in the web app: the formats offered for download and as an e-mail
 * attachment (the API's `attach_e_invoice` names), and the server's 422 `e_invoice_incomplete`
 * in people's words: each `missing_fields` entry as a sentence and, where it can be fixed,
 * the page that fixes it. Pure, so the mapping has vitest cases.
 */

export const E_INVOICE_CHOICES = ['facturx', 'xrechnung-cii', 'xrechnung-ubl', 'cii', 'ubl'] as const;
export type EInvoiceChoice = (typeof E_INVOICE_CHOICES)[number];
export const isEInvoiceChoice = (value: unknown): value is EInvoiceChoice => (E_INVOICE_CHOICES as readonly unknown[]).includes(value);

/** The download of a choice: the Factur-X PDF, or the XML in a syntax and profile. */
export function downloadOf(choice: EInvoiceChoice): { kind: 'facturx' } | { kind: 'xml'; syntax: 'cii' | 'ubl'; profile: 'en16931' | 'xrechnung' } {
  if (choice === 'facturx') return { kind: 'facturx' };
  const xrechnung = choice.startsWith('xrechnung-');
  return { kind: 'xml', syntax: choice.endsWith('ubl') ? 'ubl' : 'cii', profile: xrechnung ? 'xrechnung' : 'en16931' };
}

/** The file name the server gives it (src/modules/billing/invoices/e-invoice-data.ts), for when the header is unreadable. */
export function fallbackFilename(number: string, choice: EInvoiceChoice): string {
  const safe = number.replace(/[^A-Za-z0-9._-]+/g, '_');
  return choice === 'facturx' ? `invoice-${safe}-facturx.pdf` : `invoice-${safe}-${choice}.xml`;
}

/** The name in a Content-Disposition header (ui/save-file.ts). */
export { filenameOf } from '../../ui/save-file.ts';

/** The fields a 422 `e_invoice_incomplete` names, or null for any other error. */
export function missingFieldsOf(error: unknown): string[] | null {
  if (!(error instanceof HttpError) || error.code !== 'e_invoice_incomplete') return null;
  const list = error.body?.missing_fields;
  return Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string') : [];
}

/** One missing field: what it is in words, and where it is fixed (an in-app path), if anywhere. */
export interface Missing {
  field: string;
  text: string;
  href?: string;
}

type T = ReturnType<typeof useEInvoiceTexts>;

const SETTINGS_FIELDS = ['country_code', 'vat_id', 'vat_exemption_reason', 'street', 'city', 'postal_code', 'contact_name'] as const;
const CLIENT_FIELDS = ['country_code', 'invoice_email', 'buyer_reference', 'street', 'city', 'postal_code'] as const;
const WORKSPACE_FIELDS = ['sender_email', 'sender_phone'] as const;
const oneOf = <L extends readonly string[]>(list: L, value: string | undefined): value is L[number] => value !== undefined && list.includes(value);

export function describeMissing(field: string, invoice: { id: string; state: string; client: { id: string; name: string } }, t: T): Missing {
  const [head, rest, tail] = field.split('.');
  if (head === 'invoice_settings' && oneOf(SETTINGS_FIELDS, rest)) return { field, text: t(`missing.invoice_settings.${rest}`), href: '/settings/invoicing' };
  if (head === 'client' && oneOf(CLIENT_FIELDS, rest)) {
    return { field, text: t(`missing.client.${rest}`, { client: invoice.client.name }), href: `/clients/${encodeURIComponent(invoice.client.id)}` };
  }
  if (head === 'workspace' && oneOf(WORKSPACE_FIELDS, rest)) return { field, text: t(`missing.workspace.${rest}`), href: '/settings/workspace' };
  if (head === 'bank_accounts' && rest) return { field, text: t('missing.bank_account', { currency: rest }), href: '/settings/bank-accounts' };
  if (head === 'line_items' && rest === undefined) return { field, text: t('missing.no_lines'), ...(invoice.state === 'draft' ? { href: `/invoices/${encodeURIComponent(invoice.id)}/edit` } : {}) };
  if (head === 'line_items' && tail === 'taxed2' && /^\d+$/.test(rest)) {
    return { field, text: t('missing.both_taxes', { n: Number(rest) + 1 }), ...(invoice.state === 'draft' ? { href: `/invoices/${encodeURIComponent(invoice.id)}/edit` } : {}) };
  }
  return { field, text: t('missing.other', { field }) };
}
