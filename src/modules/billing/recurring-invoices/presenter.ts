import { decimalNumber } from '../../../money.ts';
import { clientRef } from '../../catalog/clients/index.ts';
import type { LineInput } from '../invoices/index.ts';
import type { OccurrenceRow, ScheduleRow } from './queries.ts';

/** A schedule and its occurrences as the web app shows them (percentages as JSON numbers; null: the client's). */

export function presentOccurrence(o: OccurrenceRow) {
  return {
    id: o.id,
    occurrence_date: o.occurrence_date,
    period_start: o.period_start,
    period_end: o.period_end,
    outcome: o.outcome,
    note: o.note,
    invoice: o.invoice_id && o.invoice_number !== null ? { id: o.invoice_id, number: o.invoice_number, state: o.invoice_state! } : null,
    created_at: o.created_at.toISOString(),
  };
}

export function presentSchedule(s: ScheduleRow, occurrences: OccurrenceRow[]) {
  return {
    id: s.id,
    client: clientRef(s),
    frequency: s.frequency,
    anchor_day: s.anchor_day,
    start_date: s.start_date,
    end_date: s.end_date,
    source: s.source,
    line_items: s.line_items as LineInput[],
    project_ids: s.project_ids,
    time_summary: s.time_summary,
    expense_summary: s.expense_summary,
    action: s.action,
    recipients: s.recipients,
    subject: s.subject,
    notes: s.notes,
    tax: decimalNumber(s.tax),
    tax2: decimalNumber(s.tax2),
    discount: decimalNumber(s.discount),
    is_paused: s.is_paused,
    next_run_date: s.next_run_date,
    occurrences: occurrences.map(presentOccurrence),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

export type PresentedSchedule = ReturnType<typeof presentSchedule>;
