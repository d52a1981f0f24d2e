import { Type } from '@sinclair/typebox';
import type { TypedApp } from '../../../http/route-kit.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { REASON_MAX } from './preflight.ts';
import { APPROVED_WEEKS_SHOWN, approvalQueue, myApprovalWeek, preflightOf, reviewOf, withdrawAsApprover } from './service.ts';

/**
 * The web app's approval screens (issue 16 item 3): the caller's week with its
 * approval state and last rejection, the approver's queue, a preflight read
 * before Approve, and the withdrawal of an approval, which the API does not
 * offer (spec: "Withdrawing approval is not available through the API"). Submit,
 * approve and reject are the /api/v2 routes. See docs/decisions.md.
 */

const tags = ['web'];
const Day = Type.String({ format: 'date' });

const StatusCount = Type.Object({ count: Type.Integer(), seconds: Type.Integer() }, { additionalProperties: false });
const MyWeek = Type.Object({
  from: Type.String(),
  to: Type.String(),
  today: Type.String(),
  approvals_enabled: Type.Boolean(),
  fingerprint: Type.String({ description: 'The week now; send it with submit, which answers 409 submission_stale if the week changed since.' }),
  running: Type.Boolean({ description: 'A timer runs in the week (submit would be 409 running_timer).' }),
  statuses: Type.Object(
    { unsubmitted: StatusCount, submitted: StatusCount, approved: StatusCount, rejected: StatusCount },
    { additionalProperties: false, description: 'Time entries and expenses of the week by approval state; seconds of time.' },
  ),
  rejection: OrNull(
    Type.Object(
      { reason: OrNull(Type.String()), rejected_at: Type.String(), rejected_by: OrNull(Type.String()) },
      { additionalProperties: false, description: 'The last rejection of this week\u2019s rejected items.' },
    ),
  ),
});

const QueueRow = Type.Object(
  {
    user_id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    week_start: Type.String(),
    week_end: Type.String(),
    item_count: Type.Integer(),
    seconds: Type.Integer(),
  },
  { additionalProperties: false },
);
const Queue = Type.Object({
  today: Type.String(),
  submitted: Type.Array(QueueRow, { description: 'Weeks with submitted time or expenses the caller may approve or reject.' }),
  approved: Type.Array(QueueRow, { description: `Weeks with approved time or expenses in reach, the last ${APPROVED_WEEKS_SHOWN} weeks.` }),
});

const ReviewQuery = Type.Object(
  { user_id: Type.String({ minLength: 1, maxLength: 64 }), from: Day, to: Day, project_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
const Finding = Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true });
const PreflightBody = Type.Object({
  fingerprint: Type.String(),
  blockers: Type.Array(Finding),
  warnings: Type.Array(Finding),
  submitted_count: Type.Integer({ description: 'Submitted time entries and expenses in the scope: what Approve would approve.' }),
});

const Status = Enum(['unsubmitted', 'submitted', 'approved', 'rejected']);
const ReviewEntry = Type.Object(
  {
    id: Type.String(),
    spent_date: Type.String(),
    project_id: Type.String(),
    task_name: OrNull(Type.String()),
    notes: OrNull(Type.String()),
    started_time: OrNull(Type.String()),
    ended_time: OrNull(Type.String()),
    seconds: Type.Integer({ description: 'The tracked duration (a running timer: up to its last stop).' }),
    hours: Type.Number({ description: 'The duration after the workspace rounding, in decimal hours: what an invoice would bill.' }),
    is_running: Type.Boolean(),
    billable: Type.Boolean(),
    approval_status: Status,
    billable_rate: Type.Optional(OrNull(Type.Number({ description: 'The stored rate; only for callers who may see billable rates.' }))),
    billable_amount: Type.Optional(
      OrNull(Type.Number({ description: 'hours × billable_rate, to the currency\u2019s minor unit (null when not billable or unpriced); only for callers who may see billable rates.' })),
    ),
  },
  { additionalProperties: false },
);
const ReviewExpense = Type.Object(
  {
    id: Type.String(),
    spent_date: Type.String(),
    project_id: Type.String(),
    category_name: Type.String(),
    notes: OrNull(Type.String()),
    units: OrNull(Type.Number()),
    unit_name: OrNull(Type.String()),
    total_cost: Type.Number({ description: 'What the person spent, in the project\u2019s currency (as every caller who sees the expense reads it).' }),
    billable: Type.Boolean(),
    approval_status: Status,
  },
  { additionalProperties: false },
);
const ReviewProject = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: OrNull(Type.String()),
    client_name: Type.String(),
    currency: Type.String(),
    submitted_count: Type.Integer({ description: 'What Approve with this project_id would approve.' }),
    blocked: Type.Boolean({ description: 'The preflight of this project alone has blockers.' }),
  },
  { additionalProperties: false },
);
const ReviewBody = Type.Object({
  ...PreflightBody.properties,
  shows_amounts: Type.Boolean({ description: 'Whether time entries carry billable_rate and billable_amount (the permission to view billable rates).' }),
  projects: Type.Array(ReviewProject, { description: 'The projects of the items listed, by client and name.' }),
  time_entries: Type.Array(ReviewEntry, { description: 'The person\u2019s time entries of the period within the caller\u2019s reach, by date.' }),
  expenses: Type.Array(ReviewExpense, { description: 'The person\u2019s expenses of the period within the caller\u2019s reach, by date.' }),
});

const WithdrawBody = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 64, description: 'Whose approval; another workspace\u2019s person gives 404.' }),
    from: Day,
    to: Day,
    project_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    reason: Type.Optional(OrNull(Type.String({ maxLength: REASON_MAX }))),
  },
  { additionalProperties: false },
);
const WeekRange = { week_start: Type.String(), week_end: Type.String() };
const Hold = Type.Object(
  {
    reason: Enum(['billed', 'outside_period', 'other_project']),
    message: Type.String(),
    time_entry_ids: Type.Array(Type.String()),
    expense_ids: Type.Array(Type.String()),
    invoice_ids: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
const Withdrawal = Type.Object({
  user_id: Type.String(),
  from: Type.String(),
  to: Type.String(),
  project_id: OrNull(Type.String()),
  time_entry_count: Type.Integer(),
  expense_count: Type.Integer(),
  billed_kept_count: Type.Integer(),
  unlocked_weeks: Type.Array(Type.Object(WeekRange)),
  still_locked_weeks: Type.Array(Type.Object({ ...WeekRange, held_by: Type.Array(Hold) })),
  reason: OrNull(Type.String()),
});
const WithdrawConflict = Type.Object(
  {
    error: Type.String(),
    error_description: Type.String(),
    message: Type.String(),
    still_locked_weeks: Type.Optional(Type.Array(Type.Object({ ...WeekRange, held_by: Type.Array(Hold) }))),
  },
  { additionalProperties: true },
);

export async function approvalsWebRoutes(app: TypedApp) {
  app.get(
    '/web/api/approvals/week',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getMyApprovalWeek',
        summary: 'The caller\u2019s week: its approval state, fingerprint and last rejection',
        querystring: Type.Object({ date: Type.Optional(Day) }, { additionalProperties: false }),
        response: { 200: MyWeek, ...ErrorResponses },
      },
    },
    async (request) => myApprovalWeek(app.db, principalOf(request), request.query.date, app.config.clock()),
  );

  app.get(
    '/web/api/approvals/queue',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getApprovalQueue',
        summary: 'The weeks the caller may approve or reject (submitted) and withdraw (approved)',
        description: 'Owners and administrators see everyone; managers their teammates, and with approve_managed_projects time on projects they manage (never their own); others 403.',
        response: { 200: Queue, ...ErrorResponses },
      },
    },
    async (request) => approvalQueue(app.db, principalOf(request), app.config.clock()),
  );

  app.get(
    '/web/api/approvals/preflight',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getApprovalPreflight',
        summary: 'The preflight of a person\u2019s period, read before approving',
        description: 'The blockers and warnings approve would answer, and the fingerprint to approve with. Who may: as for approve (403, 404).',
        querystring: ReviewQuery,
        response: { 200: PreflightBody, ...ErrorResponses },
      },
    },
    async (request) => preflightOf(app.db, principalOf(request), request.query),
  );

  app.get(
    '/web/api/approvals/review',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getApprovalReview',
        summary: 'A person\u2019s period as the approver reviews it: the preflight and every time entry and expense, in one call',
        description:
          'The preflight of the scope asked for (as /web/api/approvals/preflight), the items of the period within the caller\u2019s reach, ' +
          'their projects (with what Approve with that project_id would approve), and money as the caller may see it: expenses\u2019 total_cost always ' +
          '(the API shows it to everyone who sees the expense); time entries\u2019 billable_rate and billable_amount only with the permission to view billable rates. ' +
          'Who may: as for approve (403, 404).',
        querystring: ReviewQuery,
        response: { 200: ReviewBody, ...ErrorResponses },
      },
    },
    async (request) => reviewOf(app.db, principalOf(request), request.query),
  );

  app.post(
    '/web/api/approvals/withdraw',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'withdrawApproval',
        summary: 'Withdraw an approval: the person\u2019s approved time and expenses in the period go back to submitted, unlocking their weeks',
        description:
          'Web app only (the API has no withdrawal). Who may: as for approve; a manager withdraws only what they reach. ' +
          'Refused with 409 approval_withdrawal_billed, changing nothing, when billed approved work is in the period: ' +
          'still_locked_weeks names the weeks and invoices. Works with approvals turned off too (to unlock weeks approved before).',
        body: WithdrawBody,
        response: { 200: Withdrawal, 409: WithdrawConflict, ...ErrorResponses },
      },
    },
    async (request) => withdrawAsApprover(app.db, principalOf(request), request.body, app.config.clock()),
  );
}
