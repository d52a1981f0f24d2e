import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * The planner's data (WEB-STYLE 2): the schedule (GET /web/api/schedule, keys rooted at
 * ['schedule']), assignments and placeholders (session only). A move or resize of a bar is
 * optimistic: the bar goes at once, one bar's changes run in order (scope), a refusal puts
 * back only that bar. Every change stales the schedule, the home page's plan and the
 * planned-against-tracked report (api/stale.ts, `planning`).
 */

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Schedule = Json<paths['/web/api/schedule']['get']['responses'][200]>;
export type Person = Schedule['people'][number];
export type Placeholder = Schedule['placeholders'][number];
export type Assignment = Schedule['assignments'][number];
export type AssignmentBody = paths['/web/api/planning_assignments']['post']['requestBody']['content']['application/json'];
export type AssignmentPatch = NonNullable<paths['/web/api/planning_assignments/{id}']['patch']['requestBody']>['content']['application/json'];
export type PlaceholderBody = paths['/web/api/planning_placeholders']['post']['requestBody']['content']['application/json'];

export interface ScheduleRange {
  from: string;
  weeks: number;
}

export const scheduleQuery = (range: ScheduleRange) =>
  queryOptions({
    queryKey: ['schedule', range],
    queryFn: () => call(api.GET('/web/api/schedule', { params: { query: range } })),
    // Earlier and Later keep the weeks on screen until the next ones arrive.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** The active projects, for the assignment form's picker (asked for when the form opens; one request). */
export const projectChoicesQuery = queryOptions({
  queryKey: ['projects', 'list', { is_active: 'true', per_page: 2000, for: 'planning' }],
  queryFn: () => call(api.GET('/api/v2/projects', { params: { query: { is_active: 'true', per_page: 2000 } } })),
  select: (data) => data.projects.map((p) => ({ id: p.id, name: p.name, client_name: p.client.name })),
  staleTime: 60_000,
});

const MUTATION_KEY = ['planning'];

/** Marks the planner's readers stale once the last of its changes settled (an earlier answer would overwrite a later optimistic bar). */
function settled(queryClient: QueryClient) {
  if (queryClient.isMutating({ mutationKey: MUTATION_KEY }) <= 1) void markStale(queryClient, 'planning');
}

export function useCreateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: ({ body, key }: { body: AssignmentBody; key: string }) => call(api.POST('/web/api/planning_assignments', { body, headers: idempotencyHeader(key) })),
    onSettled: () => settled(queryClient),
  });
}

/** Every schedule in the cache with `change` made to one assignment (or it removed, with null). */
function rewrite(queryClient: QueryClient, id: string, change: (a: Assignment) => Assignment | null) {
  queryClient.setQueriesData<Schedule>({ queryKey: ['schedule'] }, (s) => {
    if (!s?.assignments.some((a) => a.id === id)) return s;
    return { ...s, assignments: s.assignments.flatMap((a) => (a.id === id ? (change(a) ?? []) : [a])) };
  });
}

/** The assignment as the cached schedules have it now (the optimistic state of earlier moves included). */
export function cachedAssignment(queryClient: QueryClient, id: string): Assignment | undefined {
  for (const [, s] of queryClient.getQueriesData<Schedule>({ queryKey: ['schedule'] })) {
    const a = s?.assignments.find((x) => x.id === id);
    if (a) return a;
  }
  return undefined;
}

/**
 * A change of one assignment: dates (a move, a resize), hours, row, project or notes. Optimistic
 * for dates. `onFailed` hears of every refusal (a mutate call's own callbacks only of the last call).
 */
export function useUpdateAssignment({ onFailed }: { onFailed?: (error: unknown, before: Assignment | undefined) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: MUTATION_KEY,
    scope: { id: 'planning-assignment' },
    mutationFn: ({ id, body }: { id: string; body: AssignmentPatch }) => call(api.PATCH('/web/api/planning_assignments/{id}', { params: { path: { id } }, body })),
    onMutate: async ({ id, body }) => {
      await queryClient.cancelQueries({ queryKey: ['schedule'] });
      const before = cachedAssignment(queryClient, id);
      if (body.starts_on || body.ends_on) rewrite(queryClient, id, (a) => ({ ...a, starts_on: body.starts_on ?? a.starts_on, ends_on: body.ends_on ?? a.ends_on }));
      return { before };
    },
    // Only this bar goes back: a later change of another bar may already be on screen.
    onError: (error, { id }, context) => {
      const before = context?.before;
      if (before) rewrite(queryClient, id, () => before);
      onFailed?.(error, before);
    },
    onSettled: () => settled(queryClient),
  });
}

export function useDeleteAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: (id: string) => call(api.DELETE('/web/api/planning_assignments/{id}', { params: { path: { id } } })),
    onSuccess: (_data, id) => rewrite(queryClient, id, () => null),
    onSettled: () => settled(queryClient),
  });
}

export function useCreatePlaceholder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: ({ body, key }: { body: PlaceholderBody; key: string }) => call(api.POST('/web/api/planning_placeholders', { body, headers: idempotencyHeader(key) })),
    onSettled: () => settled(queryClient),
  });
}

/** Staffs a placeholder: its assignments move to the person, the placeholder is archived. */
export function useReplacePlaceholder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: ({ id, userId }: { id: string; userId: string }) =>
      call(api.POST('/web/api/planning_placeholders/{id}/replace', { params: { path: { id } }, body: { user_id: userId } })),
    onSettled: () => settled(queryClient),
  });
}
