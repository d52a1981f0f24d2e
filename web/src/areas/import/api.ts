import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * Settings → Import (issue 27 item 3; session only, owners and administrators): a tracker's
 * CSV export previewed (/web/api/imports/preview: how its people, clients, projects, tasks
 * and rates map, nothing written) and imported (/web/api/imports: all of it or nothing; the
 * same file again adds nothing). Both are multipart: the `file` part, `format` and `date_order`.
 */
export type ImportReport = paths['/web/api/imports/preview']['post']['responses'][200]['content']['application/json'];
type ImportFormFields = paths['/web/api/imports/preview']['post']['requestBody']['content']['multipart/form-data'];
export type ImportFormat = NonNullable<ImportFormFields['format']>;
export type ImportDateOrder = NonNullable<ImportFormFields['date_order']>;
export type Tracker = ImportReport['tracker'];

export const TRACKERS: readonly Tracker[] = ['toggl', 'clockify', 'harvest', 'solidtime', 'kimai'];

/** The server's limit (src/modules/workspace/files): a larger file is refused before it is sent. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export interface ImportInput {
  file: File;
  format: ImportFormat;
  dates: ImportDateOrder;
}

function formOf({ file, format, dates }: ImportInput): FormData {
  const form = new FormData();
  form.set('format', format);
  form.set('date_order', dates);
  form.set('file', file, file.name);
  return form;
}

export function usePreviewImport() {
  return useMutation({
    // openapi-fetch sends a FormData as it is; the browser writes the multipart boundary.
    mutationFn: (input: ImportInput) => call(api.POST('/web/api/imports/preview', { body: formOf(input) as never })),
  });
}

export function useImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportInput) => call(api.POST('/web/api/imports', { body: formOf(input) as never })),
    // An import makes time entries, and may add clients, projects, tasks, people (invited) and their rates.
    onSettled: () =>
      Promise.all((['time_entry', 'client', 'project', 'task', 'member', 'invitation'] as const).map((change) => markStale(queryClient, change))),
  });
}
