import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';
import { serverNow } from '../../api/server-clock.ts';
import { markStale } from '../../api/stale.ts';
import { secondsToHours } from '../../ui/duration.ts';

/** The longest notes a time entry takes (the API's maxLength): the fields stop there, rather than the server refusing in English. */
export const NOTES_MAX = 10_000;

/**
 * The time area's data (WEB-STYLE 2): keys rooted at ['time_entries'], so any change
 * stales every view of entries (and what else an entry changes: api/stale.ts); one hook per operation; optimistic writes rolled back
 * on refusal; an Idempotency-Key on every create, made when the action begins.
 */

export type Sheet = paths['/web/api/timesheet']['get']['responses'][200]['content']['application/json'];
export type WebEntry = Sheet['entries'][number];
type Choices = paths['/web/api/time_choices']['get']['responses'][200]['content']['application/json'];
export type Choice = Choices['choices'][number];
type Timer = paths['/web/api/timer']['get']['responses'][200]['content']['application/json'];
/** A project-task pair the caller used lately (the timer's answer carries them, most recent first). */
export type RecentPair = Timer['recent'][number];

export const timerQuery = queryOptions({
  queryKey: ['time_entries', 'running'],
  queryFn: () => call(api.GET('/web/api/timer')),
  // Another device may stop it: look again on focus and every minute while visible. Not at
  // once when the timer bar mounts: the shell's loader asked for it with the session a moment
  // before (a cold load asked twice with staleTime 0, issue 21 item 8). Changes made here
  // refetch it whatever its age (they invalidate it).
  staleTime: 10_000,
  refetchInterval: 60_000,
  refetchOnWindowFocus: true,
});

/** The query of /web/api/timesheet for a week (early.ts builds the same URL before the app runs; early.test.ts compares them). */
export const sheetParams = (date?: string, user?: string) => ({ query: { ...(date ? { date } : {}), ...(user ? { user_id: user } : {}) } });

/** The week holding `date` (today in the workspace zone when absent), of `user` (the caller when absent). */
export const sheetQuery = (date?: string, user?: string) =>
  queryOptions({
    queryKey: ['time_entries', 'sheet', { date: date ?? 'today', user: user ?? 'me' }],
    queryFn: () => call(api.GET('/web/api/timesheet', { params: sheetParams(date, user) })),
    placeholderData: keepPreviousData,
  });

/**
 * The projects and tasks the caller may record on (every type-ahead of the area, "Copy last
 * week's rows"): one request, on first need, kept for minutes. Looked at again, it sends the
 * ETag it has and the server answers 304 without a body while nothing changed: the list
 * (hundreds of KB with thousands of projects) crosses the network once, not with every week.
 * The tag lives with the data in the query cache, so signing out (which clears it) forgets both.
 */
interface ChoicesCopy {
  etag: string | null;
  choices: Choice[];
}
export const choicesQuery = queryOptions({
  queryKey: ['time_choices'],
  queryFn: async ({ client, queryKey }): Promise<ChoicesCopy> => {
    const held = client.getQueryData<ChoicesCopy>(queryKey);
    const { data, error, response } = await api.GET('/web/api/time_choices', { headers: held?.etag ? { 'If-None-Match': held.etag } : {} });
    if (response.status === 304 && held) return held;
    const fresh = await call(Promise.resolve({ data, error, response }));
    return { etag: response.headers.get('etag'), choices: fresh.choices };
  },
  select: (copy) => copy.choices,
  staleTime: 5 * 60_000,
});

/** The choices, fetched if not held (for an action, such as copying last week's rows). */
export const fetchChoices = async (queryClient: QueryClient) => (await queryClient.fetchQuery(choicesQuery)).choices;

export const privateNotesQuery = (id: string) =>
  queryOptions({
    queryKey: ['time_entries', 'private_notes', id],
    queryFn: () => call(api.GET('/web/api/time_entries/{id}/private_notes', { params: { path: { id } } })),
  });

const idempotent = (key: string) => ({ 'Idempotency-Key': key });

// ---- the timer ----

export interface StartTimer {
  choice: Choice;
  notes: string;
  /** Made when the user began (Start pressed); a retry of the same body reuses it. */
  key: string;
  replace?: boolean;
}

const TEMP_ID = 'starting';
/** The id of the last timer started here: a Stop pressed while its Start was still on its way stops that one. */
let lastStartedId: string | undefined;

export function useStartTimer() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'timer' },
    mutationFn: ({ choice, notes, key, replace }: StartTimer) =>
      call(
        api.POST('/api/v2/time_entries', {
          body: { project_id: choice.project_id, task_id: choice.task_id, is_running: true, notes: notes || null, replace_running: replace || undefined },
          headers: idempotent(key),
        }),
      ),
    onMutate: async ({ choice, notes }) => {
      await queryClient.cancelQueries({ queryKey: timerQuery.queryKey });
      const before = queryClient.getQueryData(timerQuery.queryKey);
      const startedAt = new Date(serverNow()).toISOString();
      queryClient.setQueryData(timerQuery.queryKey, { recent: before?.recent ?? [], running: optimisticRunning(choice, notes, startedAt) });
      return { before };
    },
    onError: (_e, _v, context) => queryClient.setQueryData(timerQuery.queryKey, context?.before),
    onSuccess: (entry, { choice }) => {
      lastStartedId = entry.id;
      // A Stop queued meanwhile already took the timer off the bar: leave it off.
      const held = queryClient.getQueryData(timerQuery.queryKey);
      if (held?.running?.id !== TEMP_ID) return;
      // A started timer is a new entry: no earlier runs.
      queryClient.setQueryData(timerQuery.queryKey, { ...held, running: { ...withNames(entry, choice), private_notes: null, earlier_seconds: 0 } as WebEntry });
    },
    onSettled: () => void markStale(queryClient, 'timer'),
  });
}

export function useStopTimer() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'timer' },
    // Runs after a queued Start (same scope): by then that Start knows the server's id.
    mutationFn: (entryId: string) => {
      const id = entryId === TEMP_ID ? lastStartedId : entryId;
      if (!id) return Promise.resolve(null);
      return call(api.PATCH('/api/v2/time_entries/{id}/stop', { params: { path: { id } }, body: {} }));
    },
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: timerQuery.queryKey });
      const before = queryClient.getQueryData(timerQuery.queryKey);
      // The server measures the run; the bar only stops showing it.
      queryClient.setQueryData(timerQuery.queryKey, { recent: before?.recent ?? [], running: null });
      return { before };
    },
    onError: (_e, _v, context) => queryClient.setQueryData(timerQuery.queryKey, context?.before),
    onSettled: () => void markStale(queryClient, 'timer'),
  });
}

function optimisticRunning(choice: Choice, notes: string, startedAt: string): WebEntry {
  return {
    id: TEMP_ID,
    user_id: '',
    project_id: choice.project_id,
    task_id: choice.task_id,
    spent_date: startedAt.slice(0, 10),
    hours: 0,
    duration_seconds: 0,
    rounded_hours: 0,
    notes: notes || null,
    is_running: true,
    timer_started_at: startedAt,
    started_time: null,
    ended_time: null,
    is_locked: false,
    is_closed: false,
    is_billed: false,
    billable: choice.billable,
    source: 'web',
    created_at: startedAt,
    updated_at: startedAt,
    task: { id: choice.task_id, name: choice.task_name },
    project: { id: choice.project_id, name: choice.project_name, code: choice.project_code },
    client: { id: choice.client_id, name: choice.client_name },
    private_notes: null,
    earlier_seconds: 0,
  };
}

function withNames<T extends object>(entry: T, choice: Choice) {
  return {
    ...entry,
    task: { id: choice.task_id, name: choice.task_name },
    project: { id: choice.project_id, name: choice.project_name, code: choice.project_code },
    client: { id: choice.client_id, name: choice.client_name },
  };
}

export type TimerData = Timer;

// ---- the week grid ----

export interface CellTarget {
  choice: Choice;
  date: string;
}

export const cellKey = (c: { project_id: string; task_id: string }, date: string) => `${c.project_id}/${c.task_id}/${date}`;

const inCell = (cell: CellTarget) => (e: WebEntry) => e.project_id === cell.choice.project_id && e.task_id === cell.choice.task_id && e.spent_date === cell.date;

export interface SaveCell {
  /** The new total of the cell; 0 removes its entry. */
  seconds: number;
  /** Made when the edit is committed; a create carries it as its Idempotency-Key. */
  key: string;
}

/**
 * One cell of the week grid (WEB-STYLE 2): one request per committed value: no entry ->
 * create, one -> change its hours, 0 -> delete it. The cell's edits run in order (scope),
 * so a second edit waits for the first's create and then changes that entry, never
 * creating another. A refusal puts back only this cell's entries.
 */
export function useSaveCell(week: string | undefined, cell: CellTarget) {
  const queryClient = useQueryClient();
  const queryKey = sheetQuery(week).queryKey;
  const tempId = `new-${cellKey(cell.choice, cell.date)}`;
  // The cell's entry on the server, as a queued edit finds it when it runs: the week's, or
  // the one an earlier edit of this cell created (while the cache still shows it as new).
  const serverId = () => {
    const mine = queryClient.getQueryData(queryKey)?.entries.filter(inCell(cell)) ?? [];
    return mine.find((e) => e.id !== tempId)?.id ?? (mine.length ? lastCreated.get(tempId) : undefined);
  };
  return useMutation({
    scope: { id: `cell/${cellKey(cell.choice, cell.date)}` },
    mutationFn: async ({ seconds, key }: SaveCell) => {
      const id = serverId();
      if (id && seconds === 0) {
        await call(api.DELETE('/api/v2/time_entries/{id}', { params: { path: { id } } }));
        lastCreated.delete(tempId);
        return null;
      }
      if (id) return call(api.PATCH('/api/v2/time_entries/{id}', { params: { path: { id } }, body: { hours: secondsToHours(seconds) } }));
      if (seconds === 0) return null;
      const created = await call(
        api.POST('/api/v2/time_entries', {
          body: { project_id: cell.choice.project_id, task_id: cell.choice.task_id, spent_date: cell.date, hours: secondsToHours(seconds) },
          headers: idempotent(key),
        }),
      );
      lastCreated.set(tempId, created.id);
      return created;
    },
    onMutate: async ({ seconds }) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey)?.entries.filter(inCell(cell)) ?? [];
      queryClient.setQueryData(queryKey, (sheet) => {
        if (!sheet) return sheet;
        const mine = sheet.entries.filter(inCell(cell));
        const others = sheet.entries.filter((e) => !inCell(cell)(e));
        // 0 keeps the entry (at 0) until the refetch after the delete: a queued edit still finds it.
        if (seconds === 0 && mine.length === 0) return sheet;
        const base = mine[0] ?? { ...optimisticRunning(cell.choice, '', new Date(serverNow()).toISOString()), id: tempId, is_running: false, timer_started_at: null };
        const hours = secondsToHours(seconds);
        return { ...sheet, entries: [...others, { ...base, spent_date: cell.date, duration_seconds: seconds, hours, rounded_hours: hours }] };
      });
      return { before };
    },
    onError: (_e, _v, context) => {
      // Only this cell goes back: other cells' edits may have been applied meanwhile.
      queryClient.setQueryData(queryKey, (sheet) =>
        sheet ? { ...sheet, entries: [...sheet.entries.filter((e) => !inCell(cell)(e)), ...(context?.before ?? [])] } : sheet,
      );
    },
    onSettled: () => void markStale(queryClient, 'time_entry'),
  });
}

/** Entries a cell created, until the week's refetch brings them (a queued edit changes that entry). */
const lastCreated = new Map<string, string>();

// ---- editing entries (the day view, the entry editor, the calendar) ----

export type EntryChanges = paths['/api/v2/time_entries/{id}']['patch']['requestBody']['content']['application/json'];

/** Changes the fields given (the editor sends only what changed: hours alone clears the times, a time recomputes the hours). */
export function useUpdateEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: EntryChanges }) => call(api.PATCH('/api/v2/time_entries/{id}', { params: { path: { id } }, body })),
    // The server's answer into every week showing the entry at once (names and private notes kept):
    // a resized calendar block or a saved row does not spring back until the refetch.
    onSuccess: (saved) =>
      queryClient.setQueriesData<Sheet>({ queryKey: ['time_entries', 'sheet'] }, (sheet) =>
        sheet && { ...sheet, entries: sheet.entries.map((e) => (e.id === saved.id ? { ...e, ...saved } : e)) },
      ),
    onSettled: () => void markStale(queryClient, 'time_entry'),
  });
}

export function useDeleteEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/api/v2/time_entries/{id}', { params: { path: { id } } })),
    onSettled: () => void markStale(queryClient, 'time_entry'),
  });
}

export interface ContinueEntry {
  entry: WebEntry;
  /** Today in the workspace zone (the sheet's). */
  today: string;
  /** For a new timer: made when Continue was pressed; a retry of the same body reuses it. */
  key: string;
  replace?: boolean;
}

/**
 * "Continue": today's stopped entry runs again (the API's restart keeps its time so far);
 * an earlier day's starts a new timer today with its project, task, notes and billable
 * flag (a restart would count today's work on that earlier date, and needs
 * allow_past_timer_starts). A locked entry of today cannot restart: a new timer then.
 * Shares the timer's scope, so it runs after a Start or Stop pressed just before.
 */
export function useContinueEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'timer' },
    mutationFn: ({ entry, today, key, replace }: ContinueEntry) => {
      if (entry.spent_date === today && !entry.is_locked) {
        return call(api.PATCH('/api/v2/time_entries/{id}/restart', { params: { path: { id: entry.id } }, body: replace ? { replace_running: true } : {} }));
      }
      return call(
        api.POST('/api/v2/time_entries', {
          body: { project_id: entry.project_id, task_id: entry.task_id, is_running: true, notes: entry.notes, billable: entry.billable, source: 'web', replace_running: replace || undefined },
          headers: idempotent(key),
        }),
      );
    },
    onSettled: () => void markStale(queryClient, 'timer'),
  });
}

export function useSavePrivateNotes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, privateNotes }: { id: string; privateNotes: string }) =>
      call(api.PUT('/web/api/time_entries/{id}/private_notes', { params: { path: { id } }, body: { private_notes: privateNotes || null } })),
    onSettled: () => markStale(queryClient, 'private_notes'),
  });
}

export type NewEntry = paths['/api/v2/time_entries']['post']['requestBody']['content']['application/json'];

/** The day view's "Add entry": one create, its key made from the body (a retry of the same body reuses it). */
export function useCreateEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewEntry; key: string }) => call(api.POST('/api/v2/time_entries', { body, headers: idempotent(key) })),
    onSettled: () => void markStale(queryClient, 'time_entry'),
  });
}
