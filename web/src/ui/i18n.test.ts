import { describe, expect, it } from 'vitest';
import { catalogs, i18n } from './i18n.ts';

// Every texts.ts of the app, loaded so each registers its catalog.
const modules = import.meta.glob('../**/texts.ts', { eager: true });

function leaves(catalog: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of leaves(value as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('the web app’s catalogs', () => {
  it('are found', () => {
    expect(Object.keys(modules).length).toBeGreaterThan(0);
    expect(catalogs.size).toBeGreaterThanOrEqual(Object.keys(modules).length);
  });

  for (const [namespace, { en, de }] of catalogs) {
    it(`${namespace}: German has every English key, no empty text and the same placeholders`, () => {
      const source = leaves(en);
      const german = leaves(de);
      expect([...german.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [key, text] of german) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(source.get(key)!));
      }
    });
  }

  it('switch language and plural forms', async () => {
    const [namespace] = [...catalogs.keys()];
    expect(namespace).toBeDefined();
    await i18n.changeLanguage('de');
    expect(i18n.language).toBe('de');
    await i18n.changeLanguage('en');
  });
});
