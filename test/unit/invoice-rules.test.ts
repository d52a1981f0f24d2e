import { describe, expect, it } from 'vitest';
import { groupExpenses, groupTime, invoiceableStatuses } from '../../src/modules/billing/invoices/import.ts';
import { entryRoundedHours } from '../../src/modules/tracking/week/rules.ts';
import { fileSafe, formatMoney, formatQuantity } from '../../src/modules/billing/invoices/format.ts';
import { patchDue, resolveDue, termLabel } from '../../src/modules/billing/invoices/rules.ts';
import type { ImportableEntry, ImportableExpense } from '../../src/modules/billing/invoices/queries.ts';

const noTerms = { payment_terms: null, payment_days: null };

describe('due dates', () => {
  it('follows the term, the due date given, the client terms, or 30 days', () => {
    expect(resolveDue({ issueDate: '2026-01-31' }, noTerms)).toEqual({ due_date: '2026-03-02', payment_term: null });
    expect(resolveDue({ issueDate: '2026-01-31', paymentTerm: 'net_45' }, noTerms)).toEqual({ due_date: '2026-03-17', payment_term: 'net_45' });
    expect(resolveDue({ issueDate: '2026-01-31', paymentTerm: 'upon_receipt' }, noTerms).due_date).toBe('2026-01-31');
    expect(resolveDue({ issueDate: '2026-01-31', dueDate: '2026-02-05' }, noTerms)).toEqual({ due_date: '2026-02-05', payment_term: 'custom' });
    expect(resolveDue({ issueDate: '2026-01-31' }, { payment_terms: 'net_15', payment_days: null })).toEqual({ due_date: '2026-02-15', payment_term: 'net_15' });
    expect(resolveDue({ issueDate: '2026-01-31' }, { payment_terms: 'custom', payment_days: 7 })).toEqual({ due_date: '2026-02-07', payment_term: 'custom' });
    // custom alone: the client's custom days, else the spec's 30 days
    expect(resolveDue({ issueDate: '2026-01-31', paymentTerm: 'custom' }, noTerms)).toEqual({ due_date: '2026-03-02', payment_term: 'custom' });
    expect(resolveDue({ issueDate: '2026-01-31', paymentTerm: 'custom' }, { payment_terms: 'custom', payment_days: 7 })).toEqual({ due_date: '2026-02-07', payment_term: 'custom' });
    // the term gives the default only: an explicit due date is kept, with the term given
    expect(resolveDue({ issueDate: '2026-01-31', paymentTerm: 'net_15', dueDate: '2026-02-01' }, noTerms)).toEqual({ due_date: '2026-02-01', payment_term: 'net_15' });
    expect(resolveDue({ issueDate: '2026-01-31', paymentTerm: 'upon_receipt', dueDate: '2026-03-01' }, noTerms)).toEqual({ due_date: '2026-03-01', payment_term: 'upon_receipt' });
  });

  it('moves a term-derived due date with a new issue date; an explicit due date is kept with the term', () => {
    const current = { issue_date: '2026-01-01', due_date: '2026-01-31', payment_term: 'net_30' as const };
    expect(patchDue(current, { issue_date: '2026-02-01' })).toEqual({ due_date: '2026-03-03', payment_term: 'net_30' });
    expect(patchDue(current, { due_date: '2026-01-31' })).toEqual({ due_date: '2026-01-31', payment_term: 'net_30' });
    expect(patchDue(current, { due_date: '2026-02-10' })).toEqual({ due_date: '2026-02-10', payment_term: 'net_30' });
    // a due date set apart from the term stays where it is when the issue date moves
    const explicit = { issue_date: '2026-01-01', due_date: '2026-02-10', payment_term: 'net_30' as const };
    expect(patchDue(explicit, { issue_date: '2026-01-05' })).toEqual({ due_date: '2026-02-10', payment_term: 'net_30' });
    expect(patchDue({ ...current, payment_term: null }, { issue_date: '2026-01-10' })).toEqual({ due_date: '2026-01-31', payment_term: null });
  });

  it('labels terms for documents', () => {
    expect(termLabel('net_30', '2026-01-01', '2026-01-31')).toBe('Net 30');
    // a term whose date was overridden: the document states the real delay
    expect(termLabel('net_30', '2026-01-01', '2026-01-15')).toBe('Due in 14 days');
    expect(termLabel('upon_receipt', '2026-01-01', '2026-01-11')).toBe('Due in 10 days');
    expect(termLabel('upon_receipt', '2026-01-01', '2026-01-01')).toBe('Due upon receipt');
    expect(termLabel('custom', '2026-01-01', '2026-01-13')).toBe('Due in 12 days');
    expect(termLabel(null, '2026-01-01', '2026-01-31')).toBe('Due in 30 days');
  });
});

describe('import grouping', () => {
  const projects = new Map([
    ['p1', { id: 'p1', name: 'Website', code: 'WEB' }],
    ['p2', { id: 'p2', name: 'App', code: null }],
  ]);
  const entry = (o: Partial<ImportableEntry>): ImportableEntry => ({
    id: 'e',
    project_id: 'p1',
    task_id: 't1',
    user_id: 'u1',
    spent_date: '2026-01-05',
    duration_seconds: 3600,
    hours_entered: null,
    notes: null,
    task_name: 'Design',
    first_name: 'Mia',
    last_name: 'Member',
    rate: '100',
    ...o,
  });

  it('rounds each entry by the workspace rule before summing', () => {
    const up15 = { rounding: 'up' as const, rounding_minutes: 15 };
    expect(entryRoundedHours(entry({ duration_seconds: 600 }), up15).toString()).toBe('0.25');
    expect(entryRoundedHours(entry({ duration_seconds: 3960, hours_entered: '1.1' }), { rounding: 'up', rounding_minutes: 6 }).toString()).toBe('1.1');
    const lines = groupTime([entry({ id: 'a', duration_seconds: 600 }), entry({ id: 'b', duration_seconds: 600 })], 'project', up15, projects);
    expect(lines.map((l) => [l.quantity.toString(), l.recordIds])).toEqual([['0.5', ['a', 'b']]]);
  });

  it('splits a group by unit price and orders by project, label and price', () => {
    const none = { rounding: 'none' as const, rounding_minutes: 15 };
    const lines = groupTime(
      [
        entry({ id: 'a', rate: '120' }),
        entry({ id: 'b', rate: '80', task_id: 't2', task_name: 'Build' }),
        entry({ id: 'c', rate: '100', project_id: 'p2' }),
        entry({ id: 'd', rate: null }),
      ],
      'task',
      none,
      projects,
    );
    expect(lines.map((l) => [l.description, l.unitPrice.toString(), l.recordIds.join()])).toEqual([
      ['App: Design', '100', 'c'],
      ['[WEB] Website: Build', '80', 'b'],
      ['[WEB] Website: Design', '0', 'd'],
      ['[WEB] Website: Design', '120', 'a'],
    ]);
  });

  it('sums expenses per group at quantity 1', () => {
    const x = (o: Partial<ImportableExpense>): ImportableExpense => ({
      id: 'x',
      project_id: 'p1',
      user_id: 'u1',
      expense_category_id: 'c1',
      spent_date: '2026-01-05',
      total_cost: '10.10',
      notes: null,
      category_name: 'Travel',
      first_name: 'Mia',
      last_name: 'Member',
      ...o,
    });
    const lines = groupExpenses([x({ id: 'a' }), x({ id: 'b', total_cost: '0.20' }), x({ id: 'c', expense_category_id: 'c2', category_name: 'Meals' })], 'category', projects);
    expect(lines.map((l) => [l.description, l.quantity.toString(), l.unitPrice.toString()])).toEqual([
      ['[WEB] Website: Meals', '1', '10.1'],
      ['[WEB] Website: Travel', '1', '10.3'],
    ]);
  });

  it('knows which approval states are invoiceable', () => {
    expect(invoiceableStatuses({ approvals_enabled: true, invoice_before_approval: false })).toEqual(['approved']);
    expect(invoiceableStatuses({ approvals_enabled: true, invoice_before_approval: true })).toEqual(['unsubmitted', 'submitted', 'approved']);
    expect(invoiceableStatuses({ approvals_enabled: false, invoice_before_approval: false })).toEqual(['unsubmitted', 'submitted', 'approved']);
  });
});

describe('document formatting', () => {
  it('formats money exactly in the currency and quantities without trailing zeros', () => {
    expect(formatMoney('1066.5', 'EUR')).toBe('€1,066.50');
    expect(formatMoney('-100', 'USD')).toBe('-$100.00');
    expect(formatMoney('500', 'JPY')).toBe('¥500');
    expect(formatMoney('12.3456', 'USD', { unitPrice: true })).toBe('$12.3456');
    expect(formatMoney('12.3', 'USD', { unitPrice: true })).toBe('$12.30');
    expect(formatMoney('0.1234', 'BHD')).toBe('BHD\u00a00.123');
    expect(formatQuantity('1.5000')).toBe('1.5');
    expect(formatQuantity('1234.25')).toBe('1,234.25');
    expect(fileSafe('2026/07 A')).toBe('2026_07_A');
    expect(fileSafe('../..')).toBe('invoice');
  });
});
