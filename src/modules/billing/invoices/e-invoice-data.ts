import { Decimal } from 'decimal.js';
import type { Invoice } from '@e-invoice-eu/core';
import { ApiError } from '../../../errors.ts';
import { translator } from '../../../i18n/index.ts';
import { minorUnitDigits } from '../../../money.ts';
import type { InvoiceSettingsState } from '../invoice-settings/index.ts';
import type { InvoiceDocument } from './pdf.ts';
import type { InvoiceClientRow } from './queries.ts';
import { documentFilename, formatPercent } from './format.ts';
import { invoiceTotals } from './presenter.ts';
import { translatedKind } from './rules.ts';

/**
 * An invoice as an EN 16931 e-invoice (issue 25 item 10), in the internal format
 * of @e-invoice-eu/core (UBL's element names as JSON), which writes it as CII or
 * UBL XML, XRechnung or Factur-X (docs/decisions.md, "E-invoices"). Pure: this
 * file decides what the invoice says and what is missing; e-invoice.ts renders.
 *
 * The arithmetic is the invoice's own (totals.ts), carried over unchanged so the
 * e-invoice says what the PDF says:
 * - each line bears one VAT category: "S" at the invoice's `tax` (taxed) or
 *   `tax2` (taxed2) rate, "E" (exempt, with the settings' reason) when it bears
 *   neither; a line with both taxes has no EN 16931 form and is refused;
 * - the invoice's discount is a document-level allowance per VAT category,
 *   its amount split across them so they add up to the invoice's discount;
 * - each category's tax is the invoice's tax amount for that rate (EN 16931
 *   allows the one-unit rounding difference this can make);
 * - credit lines have a negative quantity at the (positive) unit price;
 * - payments, and credits drawing on a retainer (money paid before), are the
 *   paid amount (BT-113); the amount due is the invoice's.
 */

export const E_INVOICE_PROFILES = ['en16931', 'xrechnung'] as const;
export type EInvoiceProfile = (typeof E_INVOICE_PROFILES)[number];
export const E_INVOICE_SYNTAXES = ['cii', 'ubl'] as const;
export type EInvoiceSyntax = (typeof E_INVOICE_SYNTAXES)[number];

/** The e-invoices an e-mail can carry, by name (a message's `attach_e_invoice`, the outbox renderer's parameter). */
export const E_INVOICE_ATTACHMENTS = ['facturx', 'cii', 'ubl', 'xrechnung-cii', 'xrechnung-ubl'] as const;
export type EInvoiceAttachment = (typeof E_INVOICE_ATTACHMENTS)[number];
export const attachmentProfile = (name: EInvoiceAttachment): EInvoiceProfile => (name.startsWith('xrechnung-') ? 'xrechnung' : 'en16931');

export type EInvoiceFormat = { kind: 'xml'; syntax: EInvoiceSyntax; profile: EInvoiceProfile } | { kind: 'facturx' };

/** The outbox renderer of an attached e-invoice (e-invoice.ts). */
export const E_INVOICE_RENDERER = 'invoice_e_invoice';

export function attachmentFormat(name: EInvoiceAttachment): EInvoiceFormat {
  if (name === 'facturx') return { kind: 'facturx' };
  return { kind: 'xml', syntax: name.replace('xrechnung-', '') as EInvoiceSyntax, profile: attachmentProfile(name) };
}

export const eInvoiceFilename = (number: string, format: EInvoiceFormat, language: string) =>
  documentFilename('invoice', number, language, format.kind === 'facturx' ? '-facturx.pdf' : `-${format.profile === 'xrechnung' ? 'xrechnung-' : ''}${format.syntax}.xml`);

/** What an e-invoice document is made of beyond the PDF's document: the seller's and buyer's parts (0087). */
export interface EInvoiceParties {
  seller: Pick<InvoiceSettingsState, 'street' | 'postal_code' | 'city' | 'country_code' | 'contact_name' | 'vat_exemption_reason'>;
  buyer: Pick<InvoiceClientRow, 'street' | 'postal_code' | 'city' | 'country_code' | 'buyer_reference' | 'invoice_email'>;
}

export type EInvoiceDocument = InvoiceDocument;

type Line = InvoiceDocument['lines'][number];

/** UN/ECE Recommendation 20 units: hours for imported time, "one" (C62) for everything else. */
const unitOf = (line: Line) => (line.import_source === 'time' ? 'HUR' : 'C62');

/**
 * BG-29, the line's price. BT-146 is an amount, which the writer's schema takes with at most
 * two decimals, while a line's unit price has up to four (a rate of 33.3333). Such a price is
 * written per 10 or 100 units (BT-149, the base quantity, in the line's unit), so it stays exact:
 * 33.3333 per hour is 3333.33 per 100 hours, and quantity × price / base is the line's amount.
 */
function price(line: Line): { 'cbc:PriceAmount': string; 'cbc:BaseQuantity'?: string; 'cbc:BaseQuantity@unitCode'?: string } {
  const unitPrice = new Decimal(line.unit_price);
  const extra = unitPrice.decimalPlaces() - 2;
  if (extra <= 0) return { 'cbc:PriceAmount': unitPrice.toFixed() };
  const base = new Decimal(10).pow(extra);
  return { 'cbc:PriceAmount': unitPrice.mul(base).toFixed(), 'cbc:BaseQuantity': base.toFixed(), 'cbc:BaseQuantity@unitCode': unitOf(line) };
}

interface Category {
  code: 'S' | 'E';
  rate: Decimal;
  base: Decimal;
  allowance: Decimal;
  tax: Decimal;
}

const categoryKey = (code: string, rate: Decimal) => `${code}:${rate.toFixed()}`;

/** A credit drawing on a retainer: money paid before, so the e-invoice's paid amount (BT-113), not a line. */
const isDrawn = (line: Line) => line.retainer_id != null && line.effect === 'credit';

/**
 * The VAT category of each line: null for a line that bears both taxes (no EN 16931 form),
 * undefined for a retainer credit (no line of the e-invoice).
 */
function lineCategories(doc: InvoiceDocument) {
  const rate1 = new Decimal(doc.invoice.tax ?? 0);
  const rate2 = new Decimal(doc.invoice.tax2 ?? 0);
  return doc.lines.map((line) => {
    if (isDrawn(line)) return undefined;
    const t1 = line.taxed && rate1.gt(0);
    const t2 = line.taxed2 && rate2.gt(0);
    if (t1 && t2) return null;
    if (t1) return { code: 'S' as const, rate: rate1 };
    if (t2) return { code: 'S' as const, rate: rate2 };
    return { code: 'E' as const, rate: new Decimal(0) };
  });
}

/**
 * Every field an e-invoice of this invoice lacks, named as the caller fixes it
 * (`invoice_settings.country_code`, `client.buyer_reference`, `line_items.2.taxed2`),
 * in one list: the caller learns all of them at once, never from an invalid file.
 */
export function missingFields(doc: EInvoiceDocument, profile: EInvoiceProfile): string[] {
  const missing: string[] = [];
  const need = (value: unknown, field: string) => {
    if (value === null || value === undefined || value === '') missing.push(field);
  };
  const categories = lineCategories(doc);
  categories.forEach((c, i) => {
    if (c === null) missing.push(`line_items.${i}.taxed2`);
  });
  need(doc.seller.country_code, 'invoice_settings.country_code');
  need(doc.buyer.country_code, 'client.country_code');
  // The electronic addresses (BT-34, BT-49), as e-mail addresses: Peppol and XRechnung require them,
  // and so does the writer's schema for every format.
  need(doc.workspace.sender_email, 'workspace.sender_email');
  need(doc.buyer.invoice_email, 'client.invoice_email');
  // BR-S-02, BR-E-02: standard-rated or exempt lines need the seller's VAT id or tax registration.
  if (!doc.workspace.vat_id && !doc.workspace.tax_id) missing.push('invoice_settings.vat_id');
  if (categories.some((c) => c?.code === 'E')) need(doc.seller.vat_exemption_reason, 'invoice_settings.vat_exemption_reason');
  if (!doc.lines.some((line) => !isDrawn(line))) missing.push('line_items');
  if (profile === 'xrechnung') {
    // XRechnung 3.0 (BR-DE-1, -3 to -9, -15).
    need(doc.buyer.buyer_reference, 'client.buyer_reference');
    need(doc.seller.city, 'invoice_settings.city');
    need(doc.seller.postal_code, 'invoice_settings.postal_code');
    need(doc.seller.contact_name, 'invoice_settings.contact_name');
    need(doc.workspace.sender_phone, 'workspace.sender_phone');
    need(doc.buyer.city, 'client.city');
    need(doc.buyer.postal_code, 'client.postal_code');
    need(doc.bankAccount, `bank_accounts.${doc.invoice.currency}`);
  }
  return missing;
}

/** Throws the 422 that names every missing field (the first also as `field`, as every 4xx does). */
export function assertComplete(doc: EInvoiceDocument, profile: EInvoiceProfile) {
  const missing = missingFields(doc, profile);
  if (missing.length === 0) return;
  throw new ApiError(
    'e_invoice_incomplete',
    `This invoice cannot be an e-invoice yet; it lacks: ${missing.join(', ')}.`,
    { field: missing[0], missing_fields: missing },
  );
}

const money = (d: Decimal, digits: number) => d.toFixed(digits);

/** Splits the discount over the categories in proportion to their bases, the rounding rest on the largest. */
function allocateDiscount(categories: Category[], discount: Decimal, rate: Decimal, digits: number) {
  if (discount.isZero()) return;
  for (const c of categories) c.allowance = c.base.mul(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
  const rest = discount.sub(categories.reduce((a, c) => a.add(c.allowance), new Decimal(0)));
  if (!rest.isZero()) {
    const largest = categories.reduce((a, c) => (c.base.abs().gt(a.base.abs()) ? c : a));
    largest.allowance = largest.allowance.add(rest);
  }
}

const taxCategory = (c: { code: string; rate: Decimal }, reason: string | null) => ({
  'cbc:ID': c.code,
  'cbc:Percent': c.rate.toFixed(),
  ...(c.code === 'E' && reason ? { 'cbc:TaxExemptionReason': reason } : {}),
  'cac:TaxScheme': { 'cbc:ID': 'VAT' },
});

const address = (a: { street: string | null; postal_code: string | null; city: string | null; country_code: string | null }) => ({
  ...(a.street ? { 'cbc:StreetName': a.street } : {}),
  ...(a.city ? { 'cbc:CityName': a.city } : {}),
  ...(a.postal_code ? { 'cbc:PostalZone': a.postal_code } : {}),
  'cac:Country': { 'cbc:IdentificationCode': a.country_code! },
});

/** The e-invoice of a complete document (call `missingFields` first). */
export function eInvoiceData(doc: EInvoiceDocument, profile: EInvoiceProfile, language: string): Invoice {
  const { invoice, lines, workspace, client, seller, buyer, bankAccount } = doc;
  const currency = invoice.currency;
  const digits = minorUnitDigits(currency);
  const amount = (d: Decimal) => money(d, digits);
  const totals = invoiceTotals(invoice, lines);
  const lineCats = lineCategories(doc);
  const signedAmount = (i: number) => (lines[i].effect === 'credit' ? totals.lineAmounts[i].neg() : totals.lineAmounts[i]);
  // Retainer credits leave the lines for the paid amount: the totals grow by what they took off.
  const drawn = lines.reduce((sum, line, i) => (isDrawn(line) ? sum.add(totals.lineAmounts[i]) : sum), new Decimal(0));
  const shown = lines.flatMap((line, i) => (isDrawn(line) ? [] : [{ line, i, category: lineCats[i]! }]));

  const categories = new Map<string, Category>();
  shown.forEach(({ i, category: c }) => {
    const key = categoryKey(c.code, c.rate);
    const existing = categories.get(key) ?? { ...c, base: new Decimal(0), allowance: new Decimal(0), tax: new Decimal(0) };
    existing.base = existing.base.add(signedAmount(i));
    categories.set(key, existing);
  });
  const list = [...categories.values()];
  allocateDiscount(list, totals.discountAmount, new Decimal(invoice.discount ?? 0).div(100), digits);
  // The invoice's tax amounts, by rate: with two equal rates one category holds both.
  const rate1 = new Decimal(invoice.tax ?? 0);
  const rate2 = new Decimal(invoice.tax2 ?? 0);
  for (const c of list) {
    if (c.code !== 'S') continue;
    if (c.rate.eq(rate1)) c.tax = c.tax.add(totals.taxAmount);
    if (c.rate.eq(rate2)) c.tax = c.tax.add(totals.tax2Amount);
  }
  const taxTotal = totals.taxAmount.add(totals.tax2Amount);
  const paid = new Decimal(invoice.paid_total).add(drawn);
  const lineTotal = totals.subtotal.add(drawn);
  const reason = seller.vat_exemption_reason;
  const iban = bankAccount?.iban ?? null;

  const data: Invoice['ubl:Invoice'] = {
    'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
    'cbc:ID': invoice.number,
    'cbc:IssueDate': invoice.issue_date,
    'cbc:DueDate': invoice.due_date,
    'cbc:InvoiceTypeCode': '380',
    ...(invoice.notes ? { 'cbc:Note': [invoice.notes] } : {}),
    'cbc:DocumentCurrencyCode': currency as never,
    ...(buyer.buyer_reference ? { 'cbc:BuyerReference': buyer.buyer_reference } : {}),
    ...(invoice.service_period_start && invoice.service_period_end
      ? { 'cac:InvoicePeriod': { 'cbc:StartDate': invoice.service_period_start, 'cbc:EndDate': invoice.service_period_end } }
      : {}),
    ...(invoice.purchase_order ? { 'cac:OrderReference': { 'cbc:ID': invoice.purchase_order } } : {}),
    'cac:AccountingSupplierParty': {
      'cac:Party': {
        ...(workspace.sender_email ? { 'cbc:EndpointID': workspace.sender_email, 'cbc:EndpointID@schemeID': 'EM' } : {}),
        'cac:PostalAddress': address(seller),
        'cac:PartyTaxScheme': [
          ...(workspace.vat_id ? [{ 'cbc:CompanyID': workspace.vat_id, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] : []),
          ...(workspace.tax_id ? [{ 'cbc:CompanyID': workspace.tax_id, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
        ],
        'cac:PartyLegalEntity': {
          'cbc:RegistrationName': workspace.name,
          ...(workspace.registration_number ? { 'cbc:CompanyID': workspace.registration_number } : {}),
        },
        ...(seller.contact_name || workspace.sender_phone || workspace.sender_email
          ? {
              'cac:Contact': {
                ...(seller.contact_name ? { 'cbc:Name': seller.contact_name } : {}),
                ...(workspace.sender_phone ? { 'cbc:Telephone': workspace.sender_phone } : {}),
                ...(workspace.sender_email ? { 'cbc:ElectronicMail': workspace.sender_email } : {}),
              },
            }
          : {}),
      },
    },
    'cac:AccountingCustomerParty': {
      'cac:Party': {
        ...(buyer.invoice_email ? { 'cbc:EndpointID': buyer.invoice_email, 'cbc:EndpointID@schemeID': 'EM' } : {}),
        'cac:PostalAddress': address(buyer),
        ...(client.vat_id ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': client.vat_id, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } } : {}),
        'cac:PartyLegalEntity': { 'cbc:RegistrationName': client.name },
      },
    },
    // BT-72, the date of supply: the service period's end, else the issue date (supply on the invoice
    // date, as most of Sheaf's invoices for finished work are). CII requires the delivery group anyway,
    // and the library writes it only with content.
    'cac:Delivery': { 'cbc:ActualDeliveryDate': invoice.service_period_end ?? invoice.issue_date },
    ...(bankAccount
      ? {
          'cac:PaymentMeans': [
            {
              // 58: SEPA credit transfer (an IBAN in euros); 30: any other credit transfer.
              'cbc:PaymentMeansCode': iban && currency === 'EUR' ? '58' : '30',
              'cbc:PaymentID': invoice.number,
              'cac:PayeeFinancialAccount': {
                'cbc:ID': iban ?? bankAccount.local_account ?? '',
                ...(bankAccount.holder ? { 'cbc:Name': bankAccount.holder } : {}),
                ...(bankAccount.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': bankAccount.bic } } : {}),
              },
            },
          ],
        }
      : {}),
    ...(list.some((c) => !c.allowance.isZero())
      ? {
          'cac:AllowanceCharge': list
            .filter((c) => !c.allowance.isZero())
            .map((c) => ({
              'cbc:ChargeIndicator': 'false',
              'cbc:AllowanceChargeReason': translator(language)('invoice.discount', { percent: formatPercent(invoice.discount ?? 0, language) }),
              'cbc:Amount': amount(c.allowance),
              'cbc:Amount@currencyID': currency,
              'cac:TaxCategory': taxCategory(c, null),
            })),
        }
      : {}),
    'cac:TaxTotal': [
      {
        'cbc:TaxAmount': amount(taxTotal),
        'cbc:TaxAmount@currencyID': currency,
        'cac:TaxSubtotal': list.map((c) => ({
          'cbc:TaxableAmount': amount(c.base.sub(c.allowance)),
          'cbc:TaxableAmount@currencyID': currency,
          'cbc:TaxAmount': amount(c.tax),
          'cbc:TaxAmount@currencyID': currency,
          'cac:TaxCategory': taxCategory(c, reason),
        })),
      },
    ],
    'cac:LegalMonetaryTotal': {
      'cbc:LineExtensionAmount': amount(lineTotal),
      'cbc:LineExtensionAmount@currencyID': currency,
      'cbc:TaxExclusiveAmount': amount(lineTotal.sub(totals.discountAmount)),
      'cbc:TaxExclusiveAmount@currencyID': currency,
      'cbc:TaxInclusiveAmount': amount(totals.amount.add(drawn)),
      'cbc:TaxInclusiveAmount@currencyID': currency,
      ...(totals.discountAmount.isZero()
        ? {}
        : { 'cbc:AllowanceTotalAmount': amount(totals.discountAmount), 'cbc:AllowanceTotalAmount@currencyID': currency }),
      ...(paid.isZero() ? {} : { 'cbc:PrepaidAmount': amount(paid), 'cbc:PrepaidAmount@currencyID': currency }),
      'cbc:PayableAmount': amount(totals.dueAmount),
      'cbc:PayableAmount@currencyID': currency,
    },
    'cac:InvoiceLine': shown.map(({ line, i, category }, n) => {
      const quantity = new Decimal(line.quantity);
      return {
        'cbc:ID': String(n + 1),
        'cbc:InvoicedQuantity': (line.effect === 'credit' ? quantity.neg() : quantity).toFixed(),
        'cbc:InvoicedQuantity@unitCode': unitOf(line),
        'cbc:LineExtensionAmount': amount(signedAmount(i)),
        'cbc:LineExtensionAmount@currencyID': currency,
        'cac:Item': {
          ...(line.description ? { 'cbc:Description': line.description } : {}),
          'cbc:Name': itemName(line, language),
          'cac:ClassifiedTaxCategory': taxCategory(category, null),
        },
        'cac:Price': { ...price(line), 'cbc:PriceAmount@currencyID': currency },
      };
    }),
  } as unknown as Invoice['ubl:Invoice'];
  if (profile === 'xrechnung') data['cbc:CustomizationID'] = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
  return { 'ubl:Invoice': data };
}

/** BT-153 (item name, required): the line's first description line, else its kind, at most 100 characters. */
function itemName(line: Line, language: string): string {
  const first = line.description?.split('\n')[0]?.trim();
  return (first || translatedKind(line.kind, language)).slice(0, 100);
}
