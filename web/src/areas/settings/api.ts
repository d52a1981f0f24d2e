import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale, sameKey } from '../../api/stale.ts';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema';

/** Settings: the workspace's own settings (/web/api/workspace). */

export type WorkspaceSettings = paths['/web/api/workspace']['get']['responses'][200]['content']['application/json'];
export type WorkspacePatch = NonNullable<paths['/web/api/workspace']['patch']['requestBody']>['content']['application/json'];

export const workspaceQuery = queryOptions({
  queryKey: ['workspace'],
  queryFn: () => call(api.GET('/web/api/workspace')),
});

export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkspacePatch) => call(api.PATCH('/web/api/workspace', { body })),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceQuery.queryKey, workspace);
      // The workspace's name shows in the session (the switcher, the header); the answer is the settings here.
      void markStale(queryClient, 'settings', { except: sameKey(workspaceQuery.queryKey) });
    },
  });
}
