import type { paths } from '../../api/schema';

/**
 * The event kinds an endpoint subscribes to, as pure rules: grouped by the record they are
 * about (the form's checkbox groups, each with its "select all"), chosen and unchosen a kind
 * or a group at a time, always in the server's order (the order it stores and lists them).
 */

export type EventKind = NonNullable<paths['/web/api/webhook_endpoints']['post']['requestBody']>['content']['application/json']['events'][number];

/** Every kind, in the server's order (src/modules/integrations/webhooks/rules.ts EVENT_TYPES). */
export const EVENT_KINDS = [
  'time_entry.created',
  'time_entry.updated',
  'time_entry.deleted',
  'timer.started',
  'timer.stopped',
  'expense.created',
  'expense.updated',
  'expense.deleted',
  'approval.submitted',
  'approval.approved',
  'approval.rejected',
  'approval.withdrawn',
  'invoice.created',
  'invoice.updated',
  'invoice.sent',
  'invoice.paid',
  'invoice.deleted',
  'estimate.sent',
  'estimate.accepted',
  'estimate.declined',
  'client.created',
  'client.updated',
  'client.archived',
  'client.deleted',
  'project.created',
  'project.updated',
  'project.archived',
  'project.deleted',
] as const satisfies readonly EventKind[];

// A kind the API gains and this list lacks fails the type check here.
type Missing = Exclude<EventKind, (typeof EVENT_KINDS)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** The records events are about, in the form's order. */
export const RECORDS = ['time_entry', 'timer', 'expense', 'approval', 'invoice', 'estimate', 'client', 'project'] as const;
export type RecordKind = (typeof RECORDS)[number];

type Split<K> = K extends `${infer R}.${infer A}` ? [R, A] : never;
/** What happened to the record: created, sent, archived… */
export type EventAction = Split<EventKind>[1];

export const recordOf = (kind: EventKind) => kind.slice(0, kind.indexOf('.')) as RecordKind;
export const actionOf = (kind: EventKind) => kind.slice(kind.indexOf('.') + 1) as EventAction;

export const isEventKind = (value: string): value is EventKind => (EVENT_KINDS as readonly string[]).includes(value);

/** Kinds in the server's order, each once; unknown names dropped. */
export const normalized = (kinds: readonly string[]): EventKind[] => EVENT_KINDS.filter((k) => kinds.includes(k));

export interface EventGroup {
  record: RecordKind;
  /** The record's kinds, in order. */
  kinds: EventKind[];
  /** Those of them chosen. */
  chosen: EventKind[];
  /** all, some or none of the kinds chosen (the "select all" box: ticked, mixed, empty). */
  state: 'all' | 'some' | 'none';
}

/** Every record's group with what is chosen of it. */
export function groupEvents(chosen: readonly string[]): EventGroup[] {
  return RECORDS.map((record) => {
    const kinds = EVENT_KINDS.filter((k) => recordOf(k) === record);
    const picked = kinds.filter((k) => chosen.includes(k));
    return { record, kinds, chosen: picked, state: picked.length === 0 ? 'none' : picked.length === kinds.length ? 'all' : 'some' };
  });
}

/** Only the groups with something chosen (what a summary names). */
export const chosenGroups = (chosen: readonly string[]) => groupEvents(chosen).filter((g) => g.state !== 'none');

/** The choice with a kind added or taken away. */
export const withKind = (chosen: readonly string[], kind: EventKind, on: boolean): EventKind[] =>
  normalized(on ? [...chosen, kind] : chosen.filter((k) => k !== kind));

/** The choice with all of a record's kinds added ("select all" ticked) or taken away. */
export const withRecord = (chosen: readonly string[], record: RecordKind, on: boolean): EventKind[] =>
  normalized(on ? [...chosen, ...EVENT_KINDS.filter((k) => recordOf(k) === record)] : chosen.filter((k) => !isEventKind(k) || recordOf(k) !== record));

/** Whether every kind is chosen. */
export const isEverything = (chosen: readonly string[]) => normalized(chosen).length === EVENT_KINDS.length;
