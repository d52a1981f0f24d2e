import { describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/de.ts';
import { en } from '../../src/i18n/en.ts';
import { mailDate, mailNumber, translator } from '../../src/i18n/index.ts';
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
    expect(translator(null)('mail.greeting', { name: 'A & B <x>' })).toBe('Hello A & B <x>,');
  });

  it("write days and decimals in mails to people in the recipient's language (English as it always was)", () => {
    expect(mailDate('2026-05-04', 'en')).toBe('2026-05-04');
    expect(mailDate('2026-05-04', null)).toBe('2026-05-04');
    expect(mailDate('2026-05-04', 'de')).toBe('04.05.2026');
    expect(mailDate('2026-12-31', 'de')).toBe('31.12.2026');
    expect(mailNumber('1234.5', 'en')).toBe('1234.5');
    expect(mailNumber('1234.5', 'de')).toBe('1234,5');
    expect(mailNumber('0.333333', 'de')).toBe('0,333333');
    expect(translator('de')('approvalMail.timeEntries', { count: 1 })).toBe('1 Zeiteintrag');
    expect(translator('de')('approvalMail.hours', { count: 1.5, hours: '1,5' })).toBe('1,5 Stunden');
    expect(translator('en')('approvalMail.timeEntries', { count: 1 })).toBe('1 time entry');
    expect(translator('en')('approvalMail.timeEntries', { count: 2 })).toBe('2 time entries');
  });
});
