import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call, HttpError } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * The projects area's data (WEB-STYLE 2): keys rooted at ['projects'], so a change stales
 * every view of them; one hook per operation; an Idempotency-Key on every create; a
 * project's ETag kept with it and sent as If-Match on every change and on delete.
 */

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ProjectList = Json<paths['/web/api/projects']['get']['responses'][200]>;
export type ListFilter = NonNullable<paths['/web/api/projects']['get']['parameters']['query']>;
export type ListedProject = ProjectList['projects'][number];
export type Choices = Json<paths['/web/api/project_choices']['get']['responses'][200]>;
export type RateHistory = Json<paths['/web/api/projects/{id}/rate_history']['get']['responses'][200]>;
/** A project as a session sees it (never the personal sync key's directory item). */
export type Project = Extract<Json<paths['/api/v2/projects/{id}']['get']['responses'][200]>, { bill_by: unknown }>;
export type CreateBody = NonNullable<paths['/api/v2/projects']['post']['requestBody']>['content']['application/json'];
export type PatchBody = NonNullable<paths['/api/v2/projects/{id}']['patch']['requestBody']>['content']['application/json'];
export type TaskAssignment = Json<paths['/api/v2/projects/{project_id}/task_assignments']['get']['responses'][200]>['task_assignments'][number];
export type TaskAssignmentCreate = NonNullable<paths['/api/v2/projects/{project_id}/task_assignments']['post']['requestBody']>['content']['application/json'];
export type TaskAssignmentPatch = NonNullable<paths['/api/v2/projects/{project_id}/task_assignments/{task_id}']['patch']['requestBody']>['content']['application/json'];
export type UserAssignment = Json<paths['/api/v2/projects/{project_id}/user_assignments']['get']['responses'][200]>['user_assignments'][number];
export type UserAssignmentCreate = NonNullable<paths['/api/v2/projects/{project_id}/user_assignments']['post']['requestBody']>['content']['application/json'];
export type UserAssignmentPatch = NonNullable<paths['/api/v2/projects/{project_id}/user_assignments/{user_id}']['patch']['requestBody']>['content']['application/json'];

export const PER_PAGE = 50;
/** Every assignment of a project in one request (the API's largest page). */
const ALL = 2000;

export const listQuery = (filter: ListFilter) =>
  queryOptions({
    queryKey: ['projects', 'list', filter],
    queryFn: () => call(api.GET('/web/api/projects', { params: { query: { per_page: PER_PAGE, ...filter } } })),
    placeholderData: keepPreviousData,
  });

export const choicesQuery = (projectId?: string) =>
  queryOptions({
    queryKey: ['projects', 'choices', projectId ?? null],
    queryFn: () => call(api.GET('/web/api/project_choices', { params: { query: projectId ? { project_id: projectId } : {} } })),
    staleTime: 60_000,
  });

/** The project with the ETag of the body the page shows (If-Match of the next change). */
export const projectQuery = (id: string) =>
  queryOptions({
    queryKey: ['projects', 'one', id],
    queryFn: async () => {
      let etag = '';
      const project = await call(
        api.GET('/api/v2/projects/{id}', { params: { path: { id } } }).then((r) => {
          etag = r.response.headers.get('etag') ?? '';
          return r;
        }),
      );
      return { project: project as Project, etag };
    },
  });

export const taskAssignmentsQuery = (projectId: string) =>
  queryOptions({
    queryKey: ['projects', 'task_assignments', projectId],
    queryFn: () => call(api.GET('/api/v2/projects/{project_id}/task_assignments', { params: { path: { project_id: projectId }, query: { per_page: ALL } } })),
  });

export const userAssignmentsQuery = (projectId: string) =>
  queryOptions({
    queryKey: ['projects', 'user_assignments', projectId],
    queryFn: () => call(api.GET('/api/v2/projects/{project_id}/user_assignments', { params: { path: { project_id: projectId }, query: { per_page: ALL } } })),
  });

export const rateHistoryQuery = (projectId: string) =>
  queryOptions({
    queryKey: ['projects', 'rate_history', projectId],
    queryFn: () => call(api.GET('/web/api/projects/{id}/rate_history', { params: { path: { id: projectId } } })),
  });

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateBody; key: string }) => call(api.POST('/api/v2/projects', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'project'),
  });
}

/** A change (or archive, restore) of the version the page shows: If-Match, so another person's change is a 412, not overwritten. */
export function useUpdateProject(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, etag }: { body: PatchBody; etag: string }) => {
      let next = '';
      const project = await call(
        api.PATCH('/api/v2/projects/{id}', { params: { path: { id } }, body, headers: { 'If-Match': etag } }).then((r) => {
          next = r.response.headers.get('etag') ?? '';
          return r;
        }),
      );
      return { project: project as Project, etag: next };
    },
    onSuccess: (data) => queryClient.setQueryData(projectQuery(id).queryKey, data),
    // After a 412 the page keeps the version it shows (and what the person typed) until they choose to reload.
    onSettled: (_data, error) =>
      markStale(queryClient, 'project', { except: (key) => error instanceof HttpError && error.status === 412 && key[0] === 'projects' && key[1] === 'one' }),
  });
}

export function useDeleteProject(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (etag: string) => call(api.DELETE('/api/v2/projects/{id}', { params: { path: { id }, header: { 'If-Match': etag } } })),
    onSuccess: () => queryClient.removeQueries({ queryKey: projectQuery(id).queryKey }),
    onSettled: () => markStale(queryClient, 'project'),
  });
}

export function useAddTask(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaskAssignmentCreate) => call(api.POST('/api/v2/projects/{project_id}/task_assignments', { params: { path: { project_id: projectId } }, body })),
    onSettled: () => markStale(queryClient, 'project'),
  });
}

export function useChangeTask(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, body }: { taskId: string; body: TaskAssignmentPatch }) =>
      call(api.PATCH('/api/v2/projects/{project_id}/task_assignments/{task_id}', { params: { path: { project_id: projectId, task_id: taskId } }, body })),
    onSettled: () => markStale(queryClient, 'project'),
  });
}

export function useAddPerson(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: UserAssignmentCreate; key: string }) =>
      call(api.POST('/api/v2/projects/{project_id}/user_assignments', { params: { path: { project_id: projectId } }, body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'project'),
  });
}

export function useChangePerson(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: string; body: UserAssignmentPatch }) =>
      call(api.PATCH('/api/v2/projects/{project_id}/user_assignments/{user_id}', { params: { path: { project_id: projectId, user_id: userId } }, body })),
    onSettled: () => markStale(queryClient, 'project'),
  });
}

export function useRemovePerson(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      call(api.DELETE('/api/v2/projects/{project_id}/user_assignments/{user_id}', { params: { path: { project_id: projectId, user_id: userId } } })),
    onSettled: () => markStale(queryClient, 'project'),
  });
}
