import { describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/de.ts';
import { en } from '../../src/i18n/en.ts';
import { translator } from '../../src/i18n/index.ts';
import { catalogProblems } from '../../web/src/ui/catalog-check.ts';

/** Every catalog has every key of the English one, no empty text, and the same placeholders (ui/catalog-check.ts). */
describe('the server catalogs', () => {
  for (const [name, catalog] of Object.entries({ de })) {
    it(`${name} has every English key, no empty text and the same placeholders`, () => {
      expect(catalogProblems(en, catalog)).toEqual([]);
    });
  }

  it('translate with plurals and fall back to English for an unknown language', () => {
    expect(translator('de')('invoice.terms.dueIn', { count: 1 })).toBe('Zahlbar innerhalb von 1 Tag');
    expect(translator('de')('invoice.terms.dueIn', { count: 14 })).toBe('Zahlbar innerhalb von 14 Tagen');
    expect(translator('xx')('invoice.terms.dueIn', { count: 14 })).toBe('Due in 14 days');
    expect(translator(null)('invoiceMail.greeting', { client: 'A & B <x>' })).toBe('Hello A & B <x>,');
  });
});
