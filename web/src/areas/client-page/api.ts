import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';
import { filenameOf, saveFile } from '../../ui/save-file.ts';

/**
 * The client page's public calls: the page, its PDF and, for an estimate, the client's
 * answer. The token travels in the body of a POST, never in a URL; nothing is kept after
 * the page closes (no storage, one query in memory).
 */

export type ClientPageData = paths['/web/api/client-page']['post']['responses'][200]['content']['application/json'];
export type ClientInvoice = Extract<ClientPageData, { kind: 'invoice' }>;
export type ClientEstimate = Extract<ClientPageData, { kind: 'estimate' }>;

const pageKey = (token: string) => ['client-page', token];

export function useClientPage(token: string) {
  return useQuery({
    queryKey: pageKey(token),
    queryFn: () => call(api.POST('/web/api/client-page', { body: { token } })),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
  });
}

/** A filename-safe document number, as the server writes it in file names (invoices/format.ts fileSafe). */
export const fileSafe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'invoice';

/**
 * Fetches a file with the token in the body and saves it through a short-lived blob link, under
 * the name the server gives it (Content-Disposition: in the client's language, as the invoice and
 * estimate routes name them, e.g. Rechnung-RE-7.pdf); `fallback` only when that header is unreadable.
 */
async function saveServed<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>, fallback: string) {
  let response: Response | undefined;
  const blob = (await call<T>(pending.then((r) => ((response = r.response), r)))) as Blob;
  saveFile(blob, filenameOf(response?.headers.get('content-disposition') ?? null) ?? fallback);
}

/** Downloads the PDF of the page's invoice or estimate; `fallback`: the name when the server's is unreadable. */
export function useDownloadPdf(token: string) {
  return useMutation({
    mutationFn: (fallback: string) => saveServed(api.POST('/web/api/client-page/pdf', { body: { token }, parseAs: 'blob' }), fallback),
  });
}

export type EInvoiceName = ClientInvoice['e_invoices'][number];

/** Downloads one of the e-invoices the page offers, the same way. */
export function useDownloadEInvoice(token: string) {
  return useMutation({
    mutationFn: ({ format, fallback }: { format: EInvoiceName; fallback: string }) =>
      saveServed(api.POST('/web/api/client-page/e-invoice', { body: { token, format }, parseAs: 'blob' }), fallback),
  });
}

/**
 * The client accepts or declines the estimate (once). The answer is the page as it is
 * now; an acceptance names the version the page showed. A refusal (answered already,
 * past its validity, changed since) reloads the page so it shows how things stand.
 */
export function useAnswerEstimate(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: { kind: 'accept'; version: string } | { kind: 'decline'; reason: string }) =>
      answer.kind === 'accept'
        ? call(api.POST('/web/api/client-page/accept', { body: { token, version: answer.version } }))
        : call(api.POST('/web/api/client-page/decline', { body: { token, ...(answer.reason.trim() ? { reason: answer.reason.trim() } : {}) } })),
    onSuccess: (page) => queryClient.setQueryData(pageKey(token), page),
    onError: () => queryClient.invalidateQueries({ queryKey: pageKey(token) }),
  });
}
