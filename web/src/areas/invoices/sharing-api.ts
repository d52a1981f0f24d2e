import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * The invoice page's attachments and client links (issue 25 items 4 and 6), under
 * ['invoices', …] so a change to the invoice stales them too.
 */

export type Attachment = paths['/web/api/invoices/{id}/attachments']['get']['responses'][200]['content']['application/json']['attachments'][number];
export type LinkSummary = paths['/web/api/invoices/{id}/client-links']['get']['responses'][200]['content']['application/json'];

/** The page's one request for both panels (loaded with the invoice). */
export const sharingQuery = (id: string) =>
  queryOptions({
    queryKey: ['invoices', 'sharing', id],
    queryFn: () => call(api.GET('/web/api/invoices/{id}/sharing', { params: { path: { id } } })),
  });

/** Uploads one file (multipart, part `file`); the key makes a retried upload store it once. */
export function useAddAttachment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, key }: { file: File; key: string }) => {
      const form = new FormData();
      form.set('file', file, file.name);
      // openapi-fetch sends a FormData as it is; the browser writes the multipart boundary.
      return call(api.POST('/web/api/invoices/{id}/attachments', { params: { path: { id } }, body: form as never, headers: idempotencyHeader(key) }));
    },
    onSettled: () => markStale(queryClient, 'invoice_sharing'),
  });
}

export function useRemoveAttachment(invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attachmentId: string) =>
      call(api.DELETE('/web/api/invoices/{invoice_id}/attachments/{attachment_id}', { params: { path: { invoice_id: invoiceId, attachment_id: attachmentId } } })),
    onSettled: () => markStale(queryClient, 'invoice_sharing'),
  });
}


/** A new link; its URL is in the answer only (the server keeps its hash). */
export function useCreateClientLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/web/api/invoices/{id}/client-links', { params: { path: { id } } })),
    onSuccess: () => markStale(queryClient, 'invoice_sharing'),
  });
}

export function useRevokeClientLinks(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/invoices/{id}/client-links', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'invoice'),
  });
}
