import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';

/**
 * The invoices area's data (WEB-STYLE 2): keys rooted at ['invoices'], so a change
 * stales every view of them. Totals are the server's: the browser never sums money.
 */

export type InvoiceList = paths['/api/v2/invoices']['get']['responses'][200]['content']['application/json'];
export type InvoiceFilter = { state?: InvoiceState; client_id?: string; page?: number };
export type Invoice = paths['/api/v2/invoices/{id}']['get']['responses'][200]['content']['application/json'];
export type InvoiceState = Invoice['state'];
export type InvoiceMessages = paths['/api/v2/invoices/{id}/messages']['get']['responses'][200]['content']['application/json'];

export const PER_PAGE = 25;

export const invoicesQuery = (filter: InvoiceFilter) =>
  queryOptions({
    queryKey: ['invoices', 'list', filter],
    queryFn: () => call(api.GET('/api/v2/invoices', { params: { query: { per_page: PER_PAGE, ...filter } } })),
    placeholderData: keepPreviousData,
  });

/** The clients for the list's filter: one request, loaded only when the filter is opened (the page's budget is 3 calls). */
export const clientsQuery = queryOptions({
  queryKey: ['clients', 'list', { per_page: 2000 }],
  queryFn: () => call(api.GET('/api/v2/clients', { params: { query: { per_page: 2000 } } })),
  staleTime: 5 * 60_000,
});

export const invoiceQuery = (id: string) =>
  queryOptions({
    queryKey: ['invoices', 'one', id],
    queryFn: () => call(api.GET('/api/v2/invoices/{id}', { params: { path: { id } } })),
  });

export const messagesQuery = (id: string) =>
  queryOptions({
    queryKey: ['invoices', 'messages', id],
    queryFn: () => call(api.GET('/api/v2/invoices/{id}/messages', { params: { path: { id }, query: { per_page: 2000 } } })),
  });

/** The PDF, as the browser downloads it with the session cookie (a plain same-origin link: no blob, no frame). */
export const pdfHref = (id: string) => `/api/v2/invoices/${encodeURIComponent(id)}/pdf`;

export type PaymentBody = NonNullable<paths['/web/api/invoices/{id}/payments']['post']['requestBody']>['content']['application/json'];

/** An administrator records a payment (web only); the answer is the invoice with its new paid and due amounts and state. */
export function useRecordPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The key is made per payment body: a double click or a retry records the payment once.
    mutationFn: ({ body, key }: { body: PaymentBody; key: string }) =>
      call(api.POST('/web/api/invoices/{id}/payments', { params: { path: { id } }, body, headers: idempotencyHeader(key) })),
    onSuccess: (invoice) => queryClient.setQueryData(invoiceQuery(id).queryKey, invoice),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['invoices'] }),
  });
}
