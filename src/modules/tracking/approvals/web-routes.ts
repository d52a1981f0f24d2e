import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { assertMayReviewTime } from '../../../access/approvals.ts';
import { withTenant } from '../../../db/tenant.ts';
import { badRequest } from '../../../errors.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { isWorkDate, todayIn } from '../../../time/workspace-time.ts';
import { fingerprintOf, REASON_MAX } from './preflight.ts';
import { loadApprovalSettings, periodItems } from './queries.ts';
import { resolveReview, reviewPeriod, reviewPeriodIn, scopeOf, withdrawApproval } from './service.ts';
import { runPreflight } from './preflight.ts';
import { loadTimeSettings } from '../time/queries.ts';
import { weekEndOf, weekStartOf } from '../time/rules.ts';
import { lastRejectionOf, peopleNamed, reviewDetails } from './web-queries.ts';
import { byWeek, daysInReach } from './queue.ts';
import { maySeeRates } from '../../../access/catalog.ts';
import { roundedHours } from '../time/rules.ts';
import { minorUnitDigits } from '../../../money.ts';
import { Decimal } from 'decimal.js';

/**
 * The web app's approval screens (issue 16 item 3): the caller's week with its
 * approval state and last rejection, the approver's queue, a preflight read
 * before Approve, and the withdrawal of an approval, which the API does not
 * offer (spec: "Withdrawing approval is not available through the API"). Submit,
 * approve and reject are the /api/v2 routes. See docs/decisions.md.
 */

/** How far back the queue lists approved weeks (for withdrawal): 26 weeks before today. */
const APPROVED_WEEKS_SHOWN = 26;

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

const zero = () => ({ count: 0, seconds: 0 });

export async function approvalsWebRoutes(app: FastifyInstance) {
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
    async (request) => {
      const p = principalOf(request);
      const { date } = request.query as { date?: string };
      if (date !== undefined && !isWorkDate(date)) throw badRequest('date must be a date between 1900 and 2999.', { field: 'date' });
      return withTenant(app.db, p.companyId, async (trx) => {
        const [settings, time] = [await loadApprovalSettings(trx, p.companyId), await loadTimeSettings(trx, p.companyId)];
        const today = todayIn(time.timezone, app.config.clock());
        const from = weekStartOf(date ?? today, settings.week_start);
        const to = weekEndOf(from);
        const items = await periodItems(trx, p.companyId, p.userId, { from, to }, false);
        const statuses = { unsubmitted: zero(), submitted: zero(), approved: zero(), rejected: zero() };
        for (const i of items) {
          statuses[i.approval_status].count += 1;
          statuses[i.approval_status].seconds += i.kind === 'time' ? (i.duration_seconds ?? 0) : 0;
        }
        const rejected = new Set(items.filter((i) => i.approval_status === 'rejected').map((i) => i.id));
        return {
          from,
          to,
          today,
          approvals_enabled: settings.approvals_enabled,
          fingerprint: fingerprintOf(items),
          running: items.some((i) => i.is_running === true),
          statuses,
          rejection: await lastRejectionOf(trx, p.companyId, p.userId, rejected),
        };
      });
    },
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
    async (request) => {
      const p = principalOf(request);
      assertMayReviewTime(p);
      return withTenant(app.db, p.companyId, async (trx) => {
        const settings = await loadApprovalSettings(trx, p.companyId);
        const time = await loadTimeSettings(trx, p.companyId);
        const today = todayIn(time.timezone, app.config.clock());
        const since = weekStartOf(today, settings.week_start);
        const approvedSince = new Date(Date.parse(`${since}T00:00:00Z`) - APPROVED_WEEKS_SHOWN * 7 * 86_400_000).toISOString().slice(0, 10);
        const inReach = await daysInReach(trx, p, approvedSince);
        const names = await peopleNamed(trx, p.companyId, [...new Set(inReach.map((d) => d.user_id))]);
        const named = (rows: ReturnType<typeof byWeek>) =>
          rows
            .map((r) => ({ ...r, ...names.get(r.user_id)! }))
            .sort((a, b) => a.week_start.localeCompare(b.week_start) || a.name.localeCompare(b.name));
        return {
          today,
          submitted: named(byWeek(inReach.filter((d) => d.approval_status === 'submitted'), settings.week_start)),
          approved: named(byWeek(inReach.filter((d) => d.approval_status === 'approved'), settings.week_start)).reverse(),
        };
      });
    },
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
    async (request) => {
      const p = principalOf(request);
      const { review, items, preflight } = await reviewPeriod(app.db, p, request.query as Static<typeof ReviewQuery>);
      const submitted = items.filter(
        (i) =>
          i.approval_status === 'submitted' &&
          (review.projectId === undefined || i.project_id === review.projectId) &&
          (review.reach.all || review.reach.projectIds.includes(i.project_id)),
      );
      return { ...preflight, submitted_count: submitted.length };
    },
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
    async (request) => {
      const p = principalOf(request);
      const query = request.query as Static<typeof ReviewQuery>;
      return withTenant(app.db, p.companyId, async (trx) => {
        const { review, items, preflight } = await reviewPeriodIn(trx, p, query);
        const shown = items.filter(scopeOf(review));
        const time = shown.filter((i) => i.kind === 'time');
        const spent = shown.filter((i) => i.kind === 'expense');
        const projectIds = [...new Set(shown.map((i) => i.project_id))];
        const details = await reviewDetails(trx, p.companyId, { time: time.map((i) => i.id), expenses: spent.map((i) => i.id), projects: projectIds });
        const rounding = await loadTimeSettings(trx, p.companyId);
        const currencyOf = new Map(details.projects.map((x) => [x.id, x.currency]));
        const rates = maySeeRates(p);
        const byDate = <T extends { spent_date: string; id: string }>(a: T, b: T) => a.spent_date.localeCompare(b.spent_date) || a.id.localeCompare(b.id);
        const submitted = (i: { approval_status: string }) => i.approval_status === 'submitted';
        return {
          ...preflight,
          submitted_count: shown.filter(submitted).length,
          shows_amounts: rates,
          projects: details.projects.map((x) => {
            const scope = scopeOf({ reach: review.reach, projectId: x.id });
            return {
              ...x,
              submitted_count: shown.filter((i) => i.project_id === x.id && submitted(i)).length,
              blocked: runPreflight(items, scope, query, review.person.expected_weekly_hours).blockers.length > 0,
            };
          }),
          time_entries: time.sort(byDate).map((i) => {
            const seconds = i.duration_seconds ?? 0;
            const hours = roundedHours(seconds, rounding);
            const detail = details.entries.get(i.id);
            const entry = {
              id: i.id,
              spent_date: i.spent_date,
              project_id: i.project_id,
              task_name: detail?.task_name ?? null,
              notes: i.notes,
              started_time: i.started_time ?? null,
              ended_time: i.ended_time ?? null,
              seconds,
              hours: hours.toNumber(),
              is_running: i.is_running === true,
              billable: i.billable,
              approval_status: i.approval_status,
            };
            if (!rates) return entry;
            const rate = detail?.billable_rate ?? null;
            const digits = minorUnitDigits(currencyOf.get(i.project_id) ?? 'USD');
            const amount = i.billable && rate !== null ? hours.mul(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toNumber() : null;
            return { ...entry, billable_rate: rate === null ? null : Number(rate), billable_amount: amount };
          }),
          expenses: spent.sort(byDate).map((i) => {
            const detail = details.expenses.get(i.id);
            return {
              id: i.id,
              spent_date: i.spent_date,
              project_id: i.project_id,
              category_name: detail?.category_name ?? '',
              notes: i.notes,
              units: i.units == null ? null : Number(i.units),
              unit_name: detail?.unit_name ?? null,
              total_cost: Number(i.total_cost ?? 0),
              billable: i.billable,
              approval_status: i.approval_status,
            };
          }),
        };
      });
    },
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
    async (request) => {
      const p = principalOf(request);
      const body = request.body as Static<typeof WithdrawBody>;
      const review = await withTenant(app.db, p.companyId, (trx) => resolveReview(trx, p, body, { requireEnabled: false }));
      return withdrawApproval(
        app.db,
        p.companyId,
        { user: review.person.user_id, from: body.from, to: body.to, project_id: review.projectId, reason: body.reason },
        app.config.clock(),
        { actor: p, reach: review.reach, refuseBilled: true },
      );
    },
  );
}
