import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';
import { saveFile } from '../../ui/save-file.ts';
import { downloadOf, fallbackFilename, filenameOf, type EInvoiceChoice } from './e-invoice.ts';
import { invoiceQuery } from './queries.ts';

/**
 * The invoices area's data (WEB-STYLE 2): keys rooted at ['invoices'], so a change
 * stales every view of them. Totals are the server's: the browser never sums money.
 * The reads the routes prefetch are queries.ts's, re-exported here.
 */

export * from './queries.ts';

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
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}

/** An administrator deletes a wrongly recorded payment; the answer is the invoice (open again when money is due). */
export function useDeletePayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentId: string) => call(api.DELETE('/web/api/invoices/{id}/payments/{paymentId}', { params: { path: { id, paymentId } } })),
    onSuccess: (invoice) => queryClient.setQueryData(invoiceQuery(id).queryKey, invoice),
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}


export type CreateBody = NonNullable<paths['/api/v2/invoices']['post']['requestBody']>['content']['application/json'];
export type UpdateBody = NonNullable<paths['/api/v2/invoices/{id}']['patch']['requestBody']>['content']['application/json'];
export type MessageBody = NonNullable<paths['/api/v2/invoices/{id}/messages']['post']['requestBody']>['content']['application/json'];
export type MessageEvent = NonNullable<MessageBody['event_type']>;

/**
 * Who the invoice's e-mails go to first (the server's rule): the client's invoice e-mail
 * address when it has one, else its contacts with an e-mail address.
 */
export const recipientsQuery = (invoiceId: string) =>
  queryOptions({
    queryKey: ['invoices', 'recipients', invoiceId],
    queryFn: () => call(api.GET('/web/api/invoices/{id}/recipients', { params: { path: { id: invoiceId } } })),
    staleTime: 60_000,
  });

/** The invoice a create would make (web only; the server runs the create and rolls it back): nothing is stored. */
export function usePreviewInvoice() {
  return useMutation({ mutationFn: (body: CreateBody) => call(api.POST('/web/api/invoices/preview', { body })) });
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateBody; key: string }) => call(api.POST('/api/v2/invoices', { body, headers: idempotencyHeader(key) })),
    onSuccess: (invoice) => queryClient.setQueryData(invoiceQuery(invoice.id).queryKey, invoice),
    // Imported work is billed now: every view of time, expenses and reports is stale too.
    onSettled: () => markStale(queryClient, 'billing'),
  });
}

export function useUpdateInvoice(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBody) => call(api.PATCH('/api/v2/invoices/{id}', { params: { path: { id } }, body })),
    onSuccess: (invoice) => queryClient.setQueryData(invoiceQuery(id).queryKey, invoice),
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}

export type LineTaxesBody = NonNullable<paths['/web/api/invoices/{id}/line_taxes']['patch']['requestBody']>['content']['application/json'];

/** Which taxes a draft's lines bear (web only: the API's PATCH takes no tax flags); the answer is the invoice with its new totals. */
export function useSetLineTaxes(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LineTaxesBody) => call(api.PATCH('/web/api/invoices/{id}/line_taxes', { params: { path: { id } }, body })),
    onSuccess: (invoice) => queryClient.setQueryData(invoiceQuery(id).queryKey, invoice),
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}

export function useDeleteInvoice(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/api/v2/invoices/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.removeQueries({ queryKey: invoiceQuery(id).queryKey }),
    // Its work is released: unbilled again.
    onSettled: () => markStale(queryClient, 'billing'),
  });
}

/** Send, remind or thank: the message is recorded (a draft becomes open on send); the history and the invoice refresh. */
export function useSendMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: MessageBody; key: string }) =>
      call(api.POST('/api/v2/invoices/{id}/messages', { params: { path: { id } }, body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}

/** Close (written off) or void (cancelled), web only, administrators; repeating it is harmless. */
const TRANSITION_PATHS = {
  close: '/web/api/invoices/{id}/close',
  void: '/web/api/invoices/{id}/void',
  'mark-paid': '/web/api/invoices/{id}/mark-paid',
} as const;

export function useTransition(id: string, transition: keyof typeof TRANSITION_PATHS) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => call(api.POST(TRANSITION_PATHS[transition], { params: { path: { id } }, headers: idempotencyHeader(key) })),
    onSuccess: (invoice) => queryClient.setQueryData(invoiceQuery(id).queryKey, invoice),
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}

/** The PDF's bytes, for the preview in the page (same route as the download). */
export const pdfQuery = (id: string, updatedAt: string) =>
  queryOptions({
    queryKey: ['invoices', 'pdf', id, updatedAt],
    queryFn: () => call(api.GET('/api/v2/invoices/{id}/pdf', { params: { path: { id } }, parseAs: 'arrayBuffer' })) as Promise<ArrayBuffer>,
    staleTime: Infinity,
  });

/**
 * An e-invoice download: fetched with the session (so a 422 naming the missing fields can be
 * shown in the page instead of a broken file), then saved under the server's file name.
 */
export function useDownloadEInvoice(invoice: { id: string; number: string }) {
  return useMutation({
    mutationFn: async (choice: EInvoiceChoice) => {
      const d = downloadOf(choice);
      const path = { id: invoice.id };
      let response: Response | undefined;
      const note = <R extends { response: Response }>(r: R) => ((response = r.response), r);
      const blob = (await call(
        d.kind === 'facturx'
          ? api.GET('/api/v2/invoices/{id}/pdf', { params: { path, query: { format: 'facturx' } }, parseAs: 'blob' }).then(note)
          : api.GET('/api/v2/invoices/{id}/xml', { params: { path, query: { syntax: d.syntax, profile: d.profile } }, parseAs: 'blob' }).then(note),
      )) as Blob;
      saveFile(blob, filenameOf(response?.headers.get('content-disposition') ?? null) ?? fallbackFilename(invoice.number, choice));
      return choice;
    },
  });
}
