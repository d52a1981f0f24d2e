import type { Expense } from './api.ts';

/** Why a locked expense cannot be changed (its sentence, with what resolves it, is `locked.*` in texts.ts); null when it can be. */
export function lockReason(e: Pick<Expense, 'is_locked' | 'is_billed' | 'approval_status'>): 'billed' | 'approved' | null {
  if (!e.is_locked) return null;
  return e.is_billed ? 'billed' : 'approved';
}

/** The short state the list shows (`status.*` in texts.ts; nothing for an unsubmitted, unbilled expense). */
export function statusOf(e: Pick<Expense, 'is_billed' | 'approval_status'>): 'billed' | 'approved' | 'submitted' | 'rejected' | null {
  if (e.is_billed) return 'billed';
  switch (e.approval_status) {
    case 'approved':
    case 'submitted':
    case 'rejected':
      return e.approval_status;
    default:
      return null;
  }
}
