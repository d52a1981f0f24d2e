import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../api/call.ts';
import { i18n } from '../../ui/i18n.ts';
import { describeMissing, downloadOf, fallbackFilename, filenameOf, missingFieldsOf } from './e-invoice.ts';
import { eInvoiceTexts as t } from './e-invoice-texts.ts';

const draft = { id: 'inv 1', state: 'draft', client: { id: 'c1', name: 'Globex' } };
const open = { ...draft, state: 'open' };

describe('e-invoice downloads', () => {
  it('maps each choice to the route and query', () => {
    expect(downloadOf('facturx')).toEqual({ kind: 'facturx' });
    expect(downloadOf('cii')).toEqual({ kind: 'xml', syntax: 'cii', profile: 'en16931' });
    expect(downloadOf('ubl')).toEqual({ kind: 'xml', syntax: 'ubl', profile: 'en16931' });
    expect(downloadOf('xrechnung-cii')).toEqual({ kind: 'xml', syntax: 'cii', profile: 'xrechnung' });
    expect(downloadOf('xrechnung-ubl')).toEqual({ kind: 'xml', syntax: 'ubl', profile: 'xrechnung' });
  });

  it('takes the file name from Content-Disposition, else the server’s pattern', () => {
    expect(filenameOf('attachment; filename="invoice-2026-0042-cii.xml"')).toBe('invoice-2026-0042-cii.xml');
    expect(filenameOf("attachment; filename=\"x.xml\"; filename*=UTF-8''invoice-%C3%9F.xml")).toBe('invoice-ß.xml');
    expect(filenameOf(null)).toBeNull();
    expect(fallbackFilename('2026/7', 'facturx')).toBe('invoice-2026_7-facturx.pdf');
    expect(fallbackFilename('7', 'xrechnung-ubl')).toBe('invoice-7-xrechnung-ubl.xml');
  });

  it('reads the missing fields of a 422 e_invoice_incomplete only', () => {
    const body = { error: 'e_invoice_incomplete', message: 'x', missing_fields: ['client.country_code', 'invoice_settings.vat_id'] };
    expect(missingFieldsOf(new HttpError(422, body, new Headers()))).toEqual(['client.country_code', 'invoice_settings.vat_id']);
    expect(missingFieldsOf(new HttpError(422, { error: 'validation_failed' }, new Headers()))).toBeNull();
    expect(missingFieldsOf(new Error('x'))).toBeNull();
  });
});

describe('the missing fields in words', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('names each field and links to where it is filled in', () => {
    expect(describeMissing('invoice_settings.country_code', draft, t)).toEqual({ field: 'invoice_settings.country_code', text: 'Your country (invoice settings)', href: '/settings/invoicing' });
    expect(describeMissing('client.country_code', draft, t)).toMatchObject({ text: 'The country of Globex', href: '/clients/c1' });
    expect(describeMissing('client.buyer_reference', draft, t)).toMatchObject({ text: 'The buyer reference (e.g. Leitweg-ID) of Globex', href: '/clients/c1' });
    expect(describeMissing('workspace.sender_phone', draft, t)).toMatchObject({ href: '/settings/workspace' });
    expect(describeMissing('bank_accounts.EUR', draft, t)).toMatchObject({ text: 'A bank account in EUR (bank accounts)', href: '/settings/bank-accounts' });
    expect(describeMissing('line_items.2.taxed2', draft, t)).toMatchObject({ text: 'Line 3 bears both taxes; an e-invoice line can bear only one', href: '/invoices/inv%201/edit' });
    // Only a draft can be edited.
    expect(describeMissing('line_items.0.taxed2', open, t).href).toBeUndefined();
    expect(describeMissing('something.new', draft, t)).toEqual({ field: 'something.new', text: 'The field something.new' });
  });

  it('in German too', async () => {
    await i18n.changeLanguage('de');
    expect(describeMissing('client.country_code', draft, t).text).toBe('Das Land von Globex');
    expect(describeMissing('line_items.0.taxed2', draft, t).text).toMatch(/^Position 1 trägt beide Steuern/);
  });
});
