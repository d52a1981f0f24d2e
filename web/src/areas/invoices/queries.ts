import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';

/**
 * The invoices area's reads that its routes' loaders prefetch (routes.tsx, in the first load):
 * apart from api.ts, so the first load carries these few queries and not every invoice action
 * (payments, messages, e-invoice downloads), which the lazy pages bring. api.ts re-exports them.
 */

export type InvoiceList = paths['/api/v2/invoices']['get']['responses'][200]['content']['application/json'];
export type InvoiceFilter = { state?: InvoiceState; client_id?: string; page?: number };
export type Invoice = paths['/api/v2/invoices/{id}']['get']['responses'][200]['content']['application/json'];
export type InvoiceState = Invoice['state'];
export type InvoiceMessages = paths['/api/v2/invoices/{id}/messages']['get']['responses'][200]['content']['application/json'];
export type InvoiceMessage = InvoiceMessages['invoice_messages'][number];

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

export type Payment = paths['/web/api/invoices/{id}/payments']['get']['responses'][200]['content']['application/json']['payments'][number];
export type PaymentMethod = NonNullable<Payment['method']>;

/** The payments recorded on an invoice (web only), oldest first. */
export const paymentsQuery = (id: string) =>
  queryOptions({
    queryKey: ['invoices', 'payments', id],
    queryFn: () => call(api.GET('/web/api/invoices/{id}/payments', { params: { path: { id } } })),
    select: (data) => data.payments,
  });

/** The kinds a line may be given (api/item-categories.ts, shared with the estimates). */
export { kindChoicesQuery } from '../../api/item-categories.ts';
