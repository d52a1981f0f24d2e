import { describe, expect, it } from 'vitest';
import { epcAmount, epcPayload } from '../../src/modules/billing/bank-accounts/girocode.ts';
import { applyBankAccountInput, groupedIban, NEW_ACCOUNT, parseBic, parseIban } from '../../src/modules/billing/bank-accounts/rules.ts';

/** The pure rules of bank accounts and the EPC069-12 payment code's text. */

const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { extras?: { field?: string } }).extras?.field;
  }
  return 'no error';
};

describe('IBAN and BIC', () => {
  it('normalises an IBAN to electronic format and checks country, length and check digits', () => {
    expect(parseIban(' de89 3704-0044 0532 0130 00 ')).toBe('DE89370400440532013000');
    expect(parseIban('GB82 WEST 1234 5698 7654 32')).toBe('GB82WEST12345698765432');
    expect(() => parseIban('DE89370400440532013001')).toThrow(/wrong check digits/);
    expect(() => parseIban('DE8937040044053201300')).toThrow(/wrong length/);
    expect(() => parseIban('QQ89370400440532013000')).toThrow(/country code/);
    expect(fieldOf(() => parseIban('nonsense'))).toBe('iban');
  });

  it('checks a BIC of 8 or 11 characters with a country', () => {
    expect(parseBic('cobadeff xxx')).toBe('COBADEFFXXX');
    expect(parseBic('DEUTDEFF')).toBe('DEUTDEFF');
    expect(fieldOf(() => parseBic('DEUTDEF'))).toBe('bic');
    expect(fieldOf(() => parseBic('DEUTQQFF'))).toBe('bic');
  });

  it('groups an IBAN in fours for reading', () => {
    expect(groupedIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
  });
});

describe('applyBankAccountInput', () => {
  it('needs a known currency, a holder, and an IBAN or a local account', () => {
    expect(applyBankAccountInput(NEW_ACCOUNT, { currency: 'chf', holder: ' A  B ', local_account: ' Konto 1 ', bank_name: ' ' })).toEqual({
      currency: 'CHF',
      holder: 'A B',
      iban: null,
      bic: null,
      bank_name: null,
      local_account: 'Konto 1',
    });
    expect(fieldOf(() => applyBankAccountInput(NEW_ACCOUNT, { currency: 'ABC', holder: 'A', local_account: 'x' }))).toBe('currency');
    expect(fieldOf(() => applyBankAccountInput(NEW_ACCOUNT, { currency: 'EUR', holder: 'x'.repeat(71), local_account: 'x' }))).toBe('holder');
    expect(fieldOf(() => applyBankAccountInput(NEW_ACCOUNT, { currency: 'EUR', holder: 'A' }))).toBe('iban');
    const stored = applyBankAccountInput(NEW_ACCOUNT, { currency: 'EUR', holder: 'A', iban: 'DE89370400440532013000' });
    // Clearing the only account number is refused, naming the one cleared.
    expect(fieldOf(() => applyBankAccountInput(stored, { iban: null }))).toBe('iban');
    expect(applyBankAccountInput(stored, { iban: null, local_account: 'Konto 1' })).toMatchObject({ iban: null, local_account: 'Konto 1' });
  });
});

describe('the GiroCode text (EPC069-12, version 002)', () => {
  const transfer = { name: 'Acme Studio GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', amount: '1234.5', text: 'Invoice 2026-001' };

  it('has its 11 elements in order, one per line, nothing after the last', () => {
    expect(epcPayload(transfer)).toBe('BCD\n002\n1\nSCT\nCOBADEFFXXX\nAcme Studio GmbH\nDE89370400440532013000\nEUR1234.50\n\n\nInvoice 2026-001');
  });

  it('leaves the BIC empty when there is none (allowed in version 002)', () => {
    expect(epcPayload({ ...transfer, bic: null }).split('\n')[4]).toBe('');
  });

  it('leaves the amount empty for nothing due, a negative or more than 999,999,999.99', () => {
    expect(epcAmount('0')).toBe('');
    expect(epcAmount('-5')).toBe('');
    expect(epcAmount(null)).toBe('');
    expect(epcAmount('999999999.99')).toBe('EUR999999999.99');
    expect(epcAmount('1000000000')).toBe('');
    expect(epcAmount('0.01')).toBe('EUR0.01');
    expect(epcAmount('12.345')).toBe('EUR12.35');
  });

  it('keeps the name to 70 and the remittance text to 140 characters, on one line', () => {
    const lines = epcPayload({ ...transfer, name: 'N'.repeat(80), text: `Invoice\n${'9'.repeat(200)}` }).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[5]).toHaveLength(70);
    expect(lines[10]).toHaveLength(140);
    expect(lines[10].startsWith('Invoice 999')).toBe(true);
    expect(Buffer.byteLength(lines.join('\n'))).toBeLessThanOrEqual(331);
  });
});
