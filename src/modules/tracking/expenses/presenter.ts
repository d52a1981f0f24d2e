import { decimalNumber } from '../../../money.ts';
import { isClosed, isLocked } from '../time/index.ts';
import type { ExpenseRow } from './queries.ts';

/** Where a receipt's bytes are read (also the backup's `receipt_download_url`). */
export const receiptPath = (expenseId: string) => `/api/v2/expenses/${expenseId}/receipt`;

/**
 * The expense as the API shows it, the same to every caller who may see it.
 * Locked (approved or billed) and closed (approved) follow the time entries'
 * rule. The receipt is described, never embedded: its bytes are at
 * `receipt_download_url`.
 */
export function presentExpense(row: ExpenseRow) {
  const hasReceipt = row.receipt_file_id !== null;
  return {
    id: row.id,
    user_id: row.user_id,
    project_id: row.project_id,
    expense_category_id: row.expense_category_id,
    expense_category: {
      id: row.expense_category_id,
      name: row.category_name,
      unit_name: row.category_unit_name,
      unit_price: decimalNumber(row.category_unit_price),
    },
    spent_date: row.spent_date,
    units: decimalNumber(row.units),
    total_cost: Number(row.total_cost),
    notes: row.notes,
    billable: row.billable,
    is_billed: row.is_billed,
    is_locked: isLocked(row),
    is_closed: isClosed(row),
    approval_status: row.approval_status,
    source: row.source,
    metadata: row.metadata,
    receipt: hasReceipt
      ? { file_name: row.receipt_filename!, content_type: row.receipt_content_type!, byte_size: Number(row.receipt_byte_size) }
      : null,
    receipt_download_url: hasReceipt ? receiptPath(row.id) : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedExpense = ReturnType<typeof presentExpense>;
