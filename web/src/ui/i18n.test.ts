import { describe, expect, it } from 'vitest';
import { catalogProblems } from './catalog-check.ts';
import { catalogs, i18n } from './i18n.ts';

// Every texts.ts (and area-texts.ts) of the app, loaded so each registers its catalog.
const modules = import.meta.glob('../**/*texts.ts', { eager: true });

describe('the web app’s catalogs', () => {
  it('are found', () => {
    expect(Object.keys(modules).length).toBeGreaterThan(0);
    expect(catalogs.size).toBeGreaterThanOrEqual(Object.keys(modules).length);
  });

  for (const [namespace, { en, de }] of catalogs) {
    it(`${namespace}: German has every English key, no empty text and the same placeholders`, () => {
      expect(catalogProblems(en, de)).toEqual([]);
    });
  }

  it('are checked for missing, extra and empty texts and changed placeholders', () => {
    expect(catalogProblems({ a: 'A {{n}}', b: 'B', c: { d: 'D {{x}}' } }, { a: 'A', c: { d: ' ', e: 'E' } })).toEqual([
      'b: missing',
      'a: placeholders  instead of n',
      'c.d: empty',
      'c.e: not in the English catalog',
    ]);
  });

  it('switch language and plural forms', async () => {
    const [namespace] = [...catalogs.keys()];
    expect(namespace).toBeDefined();
    await i18n.changeLanguage('de');
    expect(i18n.language).toBe('de');
    await i18n.changeLanguage('en');
  });
});

describe('the language before anyone signs in', () => {
  it('is the first of the browser’s languages the app has, else English', async () => {
    const { browserLanguage } = await import('./i18n.ts');
    expect(browserLanguage(['de-AT', 'en'])).toBe('de');
    expect(browserLanguage(['fr-FR', 'en-GB'])).toBe('en');
    expect(browserLanguage(['fr-FR'])).toBe('en');
    expect(browserLanguage(['DE'])).toBe('de');
  });
});
