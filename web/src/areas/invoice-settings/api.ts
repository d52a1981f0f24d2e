import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema';

/** Settings → Invoicing: the workspace's invoice settings and logo (/web/api/invoice-settings). */

export type InvoiceSettings = paths['/web/api/invoice-settings']['get']['responses'][200]['content']['application/json'];
export type InvoiceSettingsPatch = NonNullable<paths['/web/api/invoice-settings']['patch']['requestBody']>['content']['application/json'];

export const invoiceSettingsQuery = queryOptions({
  queryKey: ['invoice-settings'],
  queryFn: () => call(api.GET('/web/api/invoice-settings')),
});

/** Each change answers with the whole settings, which replace the cached ones. */
function useSettingsMutation<T>(send: (input: T) => Promise<InvoiceSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (settings) => queryClient.setQueryData(invoiceSettingsQuery.queryKey, settings),
  });
}

export const useUpdateInvoiceSettings = () =>
  useSettingsMutation((body: InvoiceSettingsPatch) => call(api.PATCH('/web/api/invoice-settings', { body })));

export const useUploadLogo = () =>
  useSettingsMutation((file: File) => {
    const form = new FormData();
    form.set('logo', file, file.name);
    // openapi-fetch sends a FormData as it is; the browser writes the multipart boundary.
    return call(api.PUT('/web/api/invoice-settings/logo', { body: form as never }));
  });

export const useRemoveLogo = () => useSettingsMutation(() => call(api.DELETE('/web/api/invoice-settings/logo')));

/** The logo's address for the preview; the upload time makes a new logo a new address (no stale image). */
export const logoUrl = (logo: NonNullable<InvoiceSettings['logo']>) => `/web/api/invoice-settings/logo?v=${encodeURIComponent(logo.uploaded_at)}`;
