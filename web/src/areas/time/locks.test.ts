import { describe, expect, it } from 'vitest';
import { i18n } from '../../ui/i18n.ts';
import { lockOf, weekApproved } from './locks.ts';

const open = { is_locked: false, is_closed: false, is_billed: false };

describe('lockOf', () => {
  it('leaves an open entry editable, also in a week without approvals', () => {
    expect(lockOf(open)).toBeNull();
    expect(lockOf(open, false)).toBeNull();
  });
  it('says an approved entry waits for a withdrawal', () => {
    expect(lockOf({ is_locked: true, is_closed: true, is_billed: false })).toMatchObject({ short: 'approved, locked', reason: expect.stringMatching(/^Approved/) });
  });
  it('says billed before approved (a withdrawal would not open it)', () => {
    expect(lockOf({ is_locked: true, is_closed: true, is_billed: true })?.short).toBe('billed, locked');
    expect(lockOf({ is_locked: true, is_closed: false, is_billed: true })?.reason).toMatch(/Billed on an invoice/);
  });
  it('locks an open entry of an approved week', () => {
    expect(lockOf(open, true)).toMatchObject({ short: 'week approved, locked', reason: expect.stringMatching(/^This week is approved and locked/) });
  });
  it('speaks the person\u2019s language', async () => {
    await i18n.changeLanguage('de');
    try {
      expect(lockOf({ is_locked: true, is_closed: true, is_billed: true })).toMatchObject({ short: 'abgerechnet, gesperrt', reason: expect.stringMatching(/^Auf einer Rechnung/) });
      expect(lockOf(open, true)?.short).toBe('Woche freigegeben, gesperrt');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('weekApproved', () => {
  it('is any approved entry of the week', () => {
    expect(weekApproved([])).toBe(false);
    expect(weekApproved([{ is_closed: false }, { is_closed: true }])).toBe(true);
  });
});
