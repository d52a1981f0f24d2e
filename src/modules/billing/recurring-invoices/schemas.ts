import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable, createProperties, patchBody } from '../../../http/schemas.ts';
import { EXPENSE_SUMMARY_TYPES, IsoDate, LineItemCreate, NOTES_MAX, RecipientSchema, SUBJECT_MAX, TIME_SUMMARY_TYPES } from '../invoices/index.ts';
import { ACTIONS, FREQUENCIES, SOURCES } from './rules.ts';

/** The schedule's bodies and answers (web routes only: the spec names no API route for them). */

export const LINES_MAX = 100;
export const PROJECTS_MAX = 1000;
export const RECIPIENTS_MAX = 50;

const writable = {
  frequency: Enum(FREQUENCIES, 'How often an invoice is made.'),
  anchor_day: Type.Integer({
    description: 'weekly: the ISO weekday (1 Monday .. 7 Sunday); otherwise the day of the month 1..31 (a month without it: its last day).',
  }),
  start_date: IsoDate('The first occurrence is the first matching day on or after it and not before today (a schedule made, changed or resumed never invoices days already past: next_run_date says when it runs).'),
  end_date: Nullable(IsoDate('No occurrence after it; on or after start_date. Null: no end.')),
  source: Enum(SOURCES, '`lines`: the template `line_items`; `uninvoiced`: the uninvoiced work of `project_ids` in the occurrence\'s period.'),
  line_items: Type.Array(LineItemCreate, { maxItems: LINES_MAX, description: 'The template lines (source `lines`).' }),
  project_ids: Type.Array(Type.String(), {
    uniqueItems: true,
    maxItems: PROJECTS_MAX,
    description: "Projects of the client whose work is invoiced (source `uninvoiced`); empty: all of the client's projects.",
  }),
  time_summary: Nullable(Enum(TIME_SUMMARY_TYPES, 'Time, one line per (source `uninvoiced`); null: no time.')),
  expense_summary: Nullable(Enum(EXPENSE_SUMMARY_TYPES, 'Expenses, one line per (source `uninvoiced`); null: no expenses.')),
  action: Enum(ACTIONS, '`draft`: only create the invoice; `send`: create and send it to `recipients`.'),
  recipients: Type.Array(RecipientSchema, { maxItems: RECIPIENTS_MAX, description: 'Who a sent invoice goes to (action `send`).' }),
  subject: Nullable(Type.String({ maxLength: SUBJECT_MAX })),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX })),
  tax: Nullable(Type.Number({ description: "Percent; null: the client's." })),
  tax2: Nullable(Type.Number({ description: "Percent; null: the client's." })),
  discount: Nullable(Type.Number({ description: "Percent; null: the client's." })),
  is_paused: Type.Boolean({ description: 'A paused schedule makes no invoices; resumed, it goes on from today (missed occurrences are not made).' }),
};

export const ScheduleCreateBody = Type.Object(
  {
    client_id: Type.String({ description: 'An active client of the workspace.' }),
    ...createProperties(writable, ['frequency', 'anchor_day', 'start_date', 'source']),
  },
  { additionalProperties: false },
);

export const SchedulePatchBody = patchBody(writable);

export type ScheduleCreateInput = Static<typeof ScheduleCreateBody>;
export type SchedulePatchInput = Static<typeof SchedulePatchBody>;

export const OccurrenceSchema = Type.Object({
  id: Type.String(),
  occurrence_date: Type.String({ format: 'date' }),
  period_start: Type.String({ format: 'date' }),
  period_end: Type.String({ format: 'date' }),
  outcome: Enum(['drafted', 'sent', 'skipped'] as const, '`skipped`: no invoice (see `note`).'),
  note: Nullable(Type.String()),
  invoice: Nullable(
    Type.Object({ id: Type.String(), number: Type.String(), state: Type.String() }, {
      description: 'Null when skipped, or when the draft was deleted since.',
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
});

export const ScheduleSchema = Type.Object({
  id: Type.String(),
  client: Type.Object({ id: Type.String(), name: Type.String() }),
  frequency: Enum(FREQUENCIES),
  anchor_day: Type.Integer(),
  start_date: Type.String({ format: 'date' }),
  end_date: Nullable(Type.String({ format: 'date' })),
  source: Enum(SOURCES),
  line_items: Type.Array(LineItemCreate),
  project_ids: Type.Array(Type.String()),
  time_summary: Nullable(Type.String()),
  expense_summary: Nullable(Type.String()),
  action: Enum(ACTIONS),
  recipients: Type.Array(Type.Object({ email: Type.String(), name: Type.Optional(Nullable(Type.String())) })),
  subject: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  tax: Nullable(Type.Number()),
  tax2: Nullable(Type.Number()),
  discount: Nullable(Type.Number()),
  is_paused: Type.Boolean(),
  next_run_date: Nullable(Type.String({ format: 'date', description: 'The next occurrence; null once the schedule has ended.' })),
  occurrences: Type.Array(OccurrenceSchema, { description: 'Newest first (the list: the latest 12).' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
