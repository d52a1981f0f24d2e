import { describe, expect, it } from 'vitest';
import { defaultBody, defaultSubject, greeting } from '../src/modules/billing/invoices/messages.ts';

/**
 * An invoice e-mail's default subject and body, in the client's language: a reminder sent before
 * the due date names the date (so "is due" is not read as "late"), one after it says overdue.
 */

const letter = (language: string, overdue: boolean) => ({
  to: [{ email: 'ap@globex.test' }],
  workspaceName: 'Acme Studio',
  number: 'INV-7',
  amount: '200.00',
  dueAmount: '150.00',
  coveredByRetainer: false,
  currency: 'EUR',
  dueDate: '2026-12-31',
  subject: null,
  overdue,
  attachPdf: true,
  language,
});

describe('the greeting', () => {
  it('names the one recipient the sender named; a company is greeted as a company, not by its name', () => {
    expect(greeting([{ email: 'bill@globex.test', name: 'Bill Payer' }], 'de')).toBe('Guten Tag Bill Payer,');
    expect(greeting([{ email: 'bill@globex.test', name: 'Bill Payer' }], 'en')).toBe('Hello Bill Payer,');
    expect(greeting([{ email: 'ap@koerner.test' }], 'de')).toBe('Sehr geehrte Damen und Herren,');
    expect(greeting([{ email: 'a@koerner.test', name: 'Anna' }, { email: 'b@koerner.test', name: 'Ben' }], 'de')).toBe('Sehr geehrte Damen und Herren,');
    expect(greeting([{ email: 'ap@globex.test' }], 'en')).toBe('Hello,');
    expect(defaultBody('send', letter('de', false))).toMatch(/^Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie die Rechnung INV-7/);
  });
});

describe('reminders', () => {
  it('before the due date: the date in the subject and the body', () => {
    expect(defaultSubject('reminder', letter('en', false))).toBe('Reminder: invoice INV-7 from Acme Studio is due on 31 December 2026');
    expect(defaultSubject('reminder', letter('de', false))).toBe('Erinnerung: Rechnung INV-7 von Acme Studio ist am 31. Dezember 2026 fällig');
    expect(defaultBody('reminder', letter('de', false))).toContain('dass die Rechnung INV-7 am 31. Dezember 2026 fällig ist; es sind noch 150,00\u00a0€ offen.');
  });
  it('after it: overdue, without a date in the subject', () => {
    expect(defaultSubject('reminder', letter('en', true))).toBe('Reminder: invoice INV-7 from Acme Studio is overdue');
    expect(defaultBody('reminder', letter('en', true))).toContain('invoice INV-7 was due on 31 December 2026; €150.00 remains to be paid.');
  });
});
