import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';

/**
 * The client page's two public calls. The token travels in the body of a POST, never
 * in a URL; nothing is kept after the page closes (no storage, one query in memory).
 */

export type ClientInvoice = paths['/web/api/client-page']['post']['responses'][200]['content']['application/json'];

export function useClientPage(token: string) {
  return useQuery({
    queryKey: ['client-page', token],
    queryFn: () => call(api.POST('/web/api/client-page', { body: { token } })),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
  });
}

/** Downloads the PDF: fetched with the token in the body, saved through a short-lived blob link. */
export function useDownloadPdf(token: string) {
  return useMutation({
    mutationFn: async (filename: string) => {
      const data = (await call(api.POST('/web/api/client-page/pdf', { body: { token }, parseAs: 'blob' }))) as Blob;
      const url = URL.createObjectURL(data);
      try {
        const a = document.createElement('a');
        a.href = url;
        a.download = filename;
        a.rel = 'noopener';
        document.body.append(a);
        a.click();
        a.remove();
      } finally {
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      }
    },
  });
}
