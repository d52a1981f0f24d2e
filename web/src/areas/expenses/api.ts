import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * The expenses area's data (WEB-STYLE 2): keys rooted at ['expenses'], so a change
 * stales every view of them; one hook per operation; an Idempotency-Key on every
 * create, made when the form opens. Receipts travel as the API's multipart body.
 */

export type Sheet = paths['/web/api/expense_sheet']['get']['responses'][200]['content']['application/json'];
export type SheetFilter = NonNullable<paths['/web/api/expense_sheet']['get']['parameters']['query']>;
export type WebExpense = Sheet['expenses'][number];
export type Choices = paths['/web/api/expense_choices']['get']['responses'][200]['content']['application/json'];
export type ExpenseProject = Choices['projects'][number];
export type ExpenseCategory = Choices['categories'][number];
export type Expense = paths['/api/v2/expenses/{id}']['get']['responses'][200]['content']['application/json'];

export const PER_PAGE = 25;

export const sheetQuery = (filter: SheetFilter) =>
  queryOptions({
    queryKey: ['expenses', 'sheet', filter],
    queryFn: () => call(api.GET('/web/api/expense_sheet', { params: { query: { per_page: PER_PAGE, ...filter } } })),
    placeholderData: keepPreviousData,
  });

/** The form's choices; editing an expense, its project is among them even if it is someone else's (a manager's view). */
export const choicesQuery = (expenseId?: string) =>
  queryOptions({
    queryKey: ['expenses', 'choices', expenseId ?? null],
    queryFn: () => call(api.GET('/web/api/expense_choices', { params: { query: expenseId ? { expense_id: expenseId } : {} } })),
    staleTime: 5 * 60_000,
  });

export const expenseQuery = (id: string) =>
  queryOptions({
    queryKey: ['expenses', 'one', id],
    queryFn: () => call(api.GET('/api/v2/expenses/{id}', { params: { path: { id } } })),
  });

/**
 * A receipt's bytes, for a thumbnail drawn from a blob: URL (the CSP allows img-src
 * blob:). Keyed by the expense's updated_at: a replaced receipt is fetched again.
 */
export const receiptQuery = (expense: Pick<Expense, 'id' | 'updated_at'>) =>
  queryOptions({
    queryKey: ['expenses', 'receipt', expense.id, expense.updated_at],
    queryFn: () => call(api.GET('/api/v2/expenses/{expense_id}/receipt', { params: { path: { expense_id: expense.id } }, parseAs: 'blob' })) as Promise<Blob>,
    staleTime: Infinity,
  });

/** What the form sends: the API's fields; `receipt` a new file, `delete_receipt` to remove the current one. */
export interface ExpenseBody {
  project_id: string;
  expense_category_id: string;
  spent_date: string;
  total_cost?: number;
  units?: number;
  notes: string;
  billable: boolean;
  receipt?: File;
  delete_receipt?: boolean;
}

/** The API's multipart body: the fields given as text, the receipt as its file part. */
function formDataOf(body: Partial<ExpenseBody>, { create }: { create: boolean }): FormData {
  const form = new FormData();
  for (const name of ['project_id', 'expense_category_id', 'spent_date', 'units', 'total_cost', 'notes', 'billable'] as const) {
    if (body[name] !== undefined) form.set(name, String(body[name]));
  }
  if (create) form.set('source', 'web');
  if (body.delete_receipt && !body.receipt) form.set('delete_receipt', 'true');
  if (body.receipt) form.set('receipt', body.receipt, body.receipt.name);
  return form;
}

export function useCreateExpense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: ExpenseBody; key: string }) =>
      call(
        api.POST('/api/v2/expenses', {
          // openapi-fetch sends a FormData as it is; the browser writes the multipart boundary.
          body: formDataOf(body, { create: true }) as never,
          headers: idempotencyHeader(key),
        }),
      ),
    onSettled: () => markStale(queryClient, 'expense'),
  });
}

export function useUpdateExpense(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** Only the fields that changed: an unchanged units value is not re-priced at today's unit price. */
    mutationFn: (body: Partial<ExpenseBody>) =>
      call(api.PATCH('/api/v2/expenses/{id}', { params: { path: { id } }, body: formDataOf(body, { create: false }) as never })),
    onSettled: () => markStale(queryClient, 'expense'),
  });
}

export function useDeleteExpense(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/api/v2/expenses/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.removeQueries({ queryKey: expenseQuery(id).queryKey }),
    onSettled: () => markStale(queryClient, 'expense'),
  });
}
