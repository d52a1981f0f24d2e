import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * The task catalog's data (WEB-STYLE 2): keys rooted at ['tasks'] and built from the
 * API's own query; one hook per operation.
 */

export type TaskList = paths['/api/v2/tasks']['get']['responses'][200]['content']['application/json'];
export type Task = TaskList['tasks'][number];
export type TasksQuery = NonNullable<paths['/api/v2/tasks']['get']['parameters']['query']>;
export type TaskCreate = paths['/api/v2/tasks']['post']['requestBody']['content']['application/json'];
export type TaskChanges = paths['/api/v2/tasks/{id}']['patch']['requestBody']['content']['application/json'];

export const PER_PAGE = 100;

export const tasksQuery = (query: TasksQuery) =>
  queryOptions({
    queryKey: ['tasks', 'list', { per_page: PER_PAGE, ...query }],
    queryFn: () => call(api.GET('/api/v2/tasks', { params: { query: { per_page: PER_PAGE, ...query } } })),
    placeholderData: keepPreviousData,
  });

/**
 * Creates a task. The Idempotency-Key goes with it as with every create; the tasks route
 * does not take one yet (it ignores the header), and a double create is refused anyway
 * because task names are unique in the workspace (409 naming `name`).
 */
export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: TaskCreate; key: string }) => call(api.POST('/api/v2/tasks', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'task'),
  });
}

export function useUpdateTask(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: TaskChanges) => call(api.PATCH('/api/v2/tasks/{id}', { params: { path: { id } }, body: changes })),
    onSettled: () => markStale(queryClient, 'task'),
  });
}
