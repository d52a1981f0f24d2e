import type { Expense } from './api.ts';

/** Why a locked expense cannot be changed, in words, with what resolves it; null when it can be. */
export function lockReason(e: Pick<Expense, 'is_locked' | 'is_billed' | 'approval_status'>): string | null {
  if (!e.is_locked) return null;
  if (e.is_billed) return 'This expense is on an invoice, so it cannot be changed or deleted. Deleting the draft invoice releases it.';
  return 'This expense is approved, so it cannot be changed or deleted. Ask an approver to withdraw the approval.';
}

/** The short state the list shows (nothing for an unsubmitted, unbilled expense). */
export function statusLabel(e: Pick<Expense, 'is_billed' | 'approval_status'>): string | null {
  if (e.is_billed) return 'Billed';
  switch (e.approval_status) {
    case 'approved':
      return 'Approved';
    case 'submitted':
      return 'Submitted';
    case 'rejected':
      return 'Rejected';
    default:
      return null;
  }
}
