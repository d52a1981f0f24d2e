import { describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/de.ts';
import { en } from '../../src/i18n/en.ts';
import { translator } from '../../src/i18n/index.ts';

/** Every catalog has every key of the English one, no empty text, and the same placeholders. */
function leaves(catalog: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of leaves(value as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('the server catalogs', () => {
  const source = leaves(en);
  for (const [name, catalog] of Object.entries({ de })) {
    it(`${name} has every English key, no empty text and the same placeholders`, () => {
      const other = leaves(catalog);
      expect([...other.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [key, text] of other) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(source.get(key)!));
      }
    });
  }

  it('translate with plurals and fall back to English for an unknown language', () => {
    expect(translator('de')('invoice.terms.dueIn', { count: 1 })).toBe('Zahlbar innerhalb von 1 Tag');
    expect(translator('de')('invoice.terms.dueIn', { count: 14 })).toBe('Zahlbar innerhalb von 14 Tagen');
    expect(translator('xx')('invoice.terms.dueIn', { count: 14 })).toBe('Due in 14 days');
    expect(translator(null)('invoiceMail.greeting', { client: 'A & B <x>' })).toBe('Hello A & B <x>,');
  });
});
