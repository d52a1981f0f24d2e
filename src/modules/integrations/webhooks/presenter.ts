import { secondsToHoursNumber } from '../../tracking/week/index.ts';
import type { DeliveryRow, EndpointView } from './queries.ts';
import { messageId, type DisabledReason, type EventType } from './rules.ts';
import type { PresentedDelivery, PresentedEndpoint } from './schemas.ts';

/**
 * A delivery's body: `{ type, timestamp, data }` as Standard Webhooks has it. `data` is the
 * record as the change left it (as it was before, for a deletion), cut to the fields named
 * here: what the endpoint's administrator may read through the API, never a private note
 * (the trigger drops them before anything is stored), a workspace id or bookkeeping
 * columns. The trigger stores numbers as strings, so money keeps its digits; the fields
 * the API gives as JSON numbers (hours, counts) are numbers again here.
 */

type Raw = Record<string, unknown>;

const FIELDS: Record<string, readonly string[]> = {
  time_entry: [
    'id', 'spent_date', 'user_id', 'project_id', 'task_id', 'notes', 'is_running', 'timer_started_at', 'started_time', 'ended_time',
    'billable', 'billable_rate', 'is_billed', 'invoice_id', 'approval_status', 'external_reference', 'created_at', 'updated_at',
  ],
  expense: [
    'id', 'spent_date', 'user_id', 'project_id', 'expense_category_id', 'notes', 'units', 'total_cost', 'billable', 'is_billed',
    'invoice_id', 'approval_status', 'receipt_file_id', 'created_at', 'updated_at',
  ],
  invoice: [
    'id', 'client_id', 'number', 'state', 'currency', 'subject', 'notes', 'purchase_order', 'issue_date', 'due_date', 'payment_term',
    'tax', 'tax2', 'discount', 'period_start', 'period_end', 'sent_at', 'paid_at', 'created_by', 'created_at', 'updated_at',
  ],
  estimate: [
    'id', 'client_id', 'number', 'state', 'currency', 'subject', 'notes', 'issue_date', 'valid_until', 'tax', 'tax2', 'discount',
    'sent_at', 'accepted_at', 'declined_at', 'decline_reason', 'created_by', 'created_at', 'updated_at',
  ],
  client: ['id', 'name', 'is_active', 'currency', 'address', 'created_at', 'updated_at'],
  project: [
    'id', 'client_id', 'name', 'code', 'is_active', 'is_billable', 'is_fixed_fee', 'bill_by', 'budget', 'budget_by', 'starts_on', 'ends_on',
    'notes', 'created_at', 'updated_at',
  ],
  // The audit record's details of the transition: the person, who acted, the period and counts, a rejection's reason.
  approval: ['user_id', 'actor_user_id', 'from', 'to', 'project_id', 'time_entry_count', 'expense_count', 'time_entry_ids', 'expense_ids', 'reason', 'occurred_at'],
};

/** Fields the API gives as JSON numbers (the trigger made every number a string). */
const NUMBERS = new Set(['time_entry_count', 'expense_count']);

function timestamp(v: unknown): unknown {
  return typeof v === 'string' ? new Date(v).toISOString() : v;
}

export function presentData(recordType: string, raw: Raw): Raw {
  const data: Raw = {};
  for (const field of FIELDS[recordType] ?? ['id']) {
    if (!(field in raw)) continue;
    const v = raw[field];
    data[field] = field.endsWith('_at') && v !== null ? timestamp(v) : NUMBERS.has(field) && typeof v === 'string' ? Number(v) : v;
  }
  if (recordType === 'time_entry') {
    const entered = raw.hours_entered;
    data.hours = typeof entered === 'string' && raw.timer_started_at === null ? Number(entered) : secondsToHoursNumber(Number(raw.duration_seconds ?? 0));
  }
  return data;
}

export interface DeliveryContent {
  event_type: string;
  record_type: string;
  occurred_at: Date;
  data: unknown;
}

/** The exact bytes sent (and signed): the same on every attempt of one delivery. */
export function payloadOf(d: DeliveryContent): string {
  return JSON.stringify({ type: d.event_type as EventType, timestamp: d.occurred_at.toISOString(), data: presentData(d.record_type, d.data as Raw) });
}

/**
 * An endpoint as the web app and the CLI show it: never its secrets. `held` is why it delivers
 * nothing although it was not turned off yet (holder.ts): it is shown as off, for that reason.
 */
export function presentEndpoint(row: EndpointView, counts: { pending: number; failed: number } | undefined, now: Date, held: DisabledReason | null = null): PresentedEndpoint {
  const overlap = row.previous_secret_expires_at && row.previous_secret_expires_at > now ? row.previous_secret_expires_at : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as EventType[],
    is_active: row.is_active && held === null,
    disabled_reason: held ?? (row.disabled_reason as DisabledReason | null),
    disabled_at: row.disabled_at?.toISOString() ?? null,
    previous_secret_valid_until: overlap?.toISOString() ?? null,
    created_by: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
    pending_count: counts?.pending ?? 0,
    failed_count: counts?.failed ?? 0,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentDelivery(row: DeliveryRow): PresentedDelivery {
  return {
    id: row.id,
    webhook_id: messageId(row.id),
    cursor: String(row.seq),
    event_type: row.event_type as EventType,
    record_type: row.record_type,
    record_id: row.record_id,
    state: row.state as PresentedDelivery['state'],
    attempts: row.attempts,
    response_status: row.last_status,
    error: row.last_error,
    occurred_at: row.occurred_at.toISOString(),
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    next_attempt_at: row.state === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
  };
}
