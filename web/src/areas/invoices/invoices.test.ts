import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../ui/i18n.ts';
import { filterOf, searchOf } from './filters.ts';
import { kindText } from './kinds.ts';
import { stateOf, STATES } from './states.ts';
import { invoiceTexts } from './texts.ts';

describe('a line’s kind', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('reads the kinds Sheaf writes in the person’s language, any other as typed', async () => {
    expect(kindText(invoiceTexts, 'SERVICE')).toBe('Service');
    expect(kindText(invoiceTexts, 'Service')).toBe('Service');
    expect(kindText(invoiceTexts, 'Expense')).toBe('Expense');
    expect(kindText(invoiceTexts, 'Product')).toBe('Product');
    await i18n.changeLanguage('de');
    expect(kindText(invoiceTexts, 'SERVICE')).toBe('Leistung');
    expect(kindText(invoiceTexts, 'Service')).toBe('Leistung');
    expect(kindText(invoiceTexts, 'Expense')).toBe('Auslage');
    expect(kindText(invoiceTexts, 'Product')).toBe('Produkt');
    expect(kindText(invoiceTexts, 'Travel')).toBe('Travel');
  });
});

describe('states', () => {
  it('have a name in both languages and a badge', async () => {
    expect(STATES.map((s) => invoiceTexts(`states.${s.id}`))).toEqual(['Draft', 'Open', 'Paid', 'Closed', 'Voided']);
    await i18n.changeLanguage('de');
    expect(STATES.map((s) => invoiceTexts(`states.${s.id}`))).toEqual(['Entwurf', 'Offen', 'Bezahlt', 'Abgeschlossen', 'Storniert']);
    await i18n.changeLanguage('en');
    expect(stateOf('paid').badge).toContain('emerald');
  });
});

describe('the list’s filter in the URL', () => {
  it('reads what it can and drops the rest', () => {
    expect(filterOf(new URLSearchParams('state=open&client_id=c1&page=2'))).toEqual({ state: 'open', client_id: 'c1', page: 2 });
    expect(filterOf(new URLSearchParams('state=lost&page=1'))).toEqual({});
  });

  it('writes it back', () => {
    expect(searchOf({ state: 'paid', page: 3 })).toBe('?state=paid&page=3');
    expect(searchOf({ page: 1 })).toBe('');
  });
});
