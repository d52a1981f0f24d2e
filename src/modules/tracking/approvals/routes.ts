import { Type } from '@sinclair/typebox';
import type { preValidationAsyncHookHandler } from 'fastify';
import { ErrorBody, ErrorResponses } from '../../../http/schemas.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { publicUrlOf } from '../../../config.ts';
import { MAX_PERIOD_DAYS, WARNING_CODES } from './preflight.ts';
import { ApproveBody, RejectBody, SubmitBody } from './schemas.ts';
import { approve, checkApprovalsEnabled, reject, submit } from './service.ts';

// ---- schemas ----

const Finding = Type.Object(
  { code: Type.String(), message: Type.String() },
  { additionalProperties: true, description: 'A blocker or warning: its code, a message and details (entry ids, hours, dates).' },
);
const PreflightSchema = Type.Object(
  {
    fingerprint: Type.String({ description: 'Send it back as preflight_fingerprint.' }),
    blockers: Type.Array(Finding, { description: 'running_timer, unsubmitted_time' }),
    warnings: Type.Array(Finding, { description: WARNING_CODES.join(', ') }),
  },
  { additionalProperties: false },
);
const Counts = {
  time_entry_count: Type.Integer({ description: 'Time entries that changed state.' }),
  expense_count: Type.Integer({ description: 'Expenses that changed state.' }),
};

/** 409 bodies: the error shape, with the current `preflight` on approve's preflight errors. */
const ConflictBody = Type.Object(
  {
    error: Type.String(),
    error_description: Type.String(),
    message: Type.String(),
    preflight: Type.Optional(PreflightSchema),
    fingerprint: Type.Optional(Type.String({ description: 'submission_stale: the current fingerprint.' })),
    running_entry: Type.Optional(Type.Object({ id: Type.String() })),
    running_entry_count: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);
const errors = { 409: ConflictBody, '4xx': ErrorBody, '5xx': ErrorResponses['5xx'] };

const COMMON = `Needs timesheet approvals enabled for the workspace (403 otherwise). Strict body (unknown field 400); from and to are inclusive YYYY-MM-DD, at most ${MAX_PERIOD_DAYS} days. Accepts Idempotency-Key (a 409 releases the key).`;

// ---- routes ----

export async function approvalsRoutes(app: TypedApp) {
  app.features.add('time-approvals-v1');
  const tags = ['approvals'];

  /** Approvals turned off: 403 on all three, before the body is looked at. */
  const approvalsEnabled: preValidationAsyncHookHandler = async (request) => {
    await checkApprovalsEnabled(app.db, principalOf(request).companyId);
  };

  app.post(
    '/api/v2/approvals/submit',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: approvalsEnabled,
      schema: {
        tags,
        summary: 'Submit your own time and expenses for a period',
        description: `Submits the caller's own completed, unbilled time entries and expenses dated from..to that are unsubmitted or were rejected. There is no user_id. A running timer in the period is 409 running_timer (with running_entry); a fingerprint from an earlier submit that no longer matches the period is 409 submission_stale (with the current fingerprint). The person's approvers are e-mailed. Members, contractors, managers, administrators and owners submit; personal sync keys cannot. ${COMMON}`,
        body: SubmitBody,
        response: {
          200: Type.Object({
            submitted_count: Type.Integer({ description: 'Time entries and expenses submitted by this request.' }),
            submitted_seconds: Type.Integer({ description: 'Their time, in seconds.' }),
            fingerprint: Type.String({ description: 'The period now; send it with a later submit to be told if it changed.' }),
          }),
          ...errors,
        },
      },
    },
    async (request) => submit(requestDb(request), principalOf(request), request.body, app.config.clock(), publicUrlOf(app.config)),
  );

  app.post(
    '/api/v2/approvals/approve',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: approvalsEnabled,
      schema: {
        tags,
        summary: "Approve a person's submitted time and expenses",
        description: `Runs the preflight, which cannot be skipped. Blockers (running_timer, unsubmitted_time) give 409 approval_blocked and cannot be acknowledged. Warnings (${WARNING_CODES.join(', ')}) give 409 approval_warnings_unacknowledged until the request carries preflight_fingerprint and every warning code in acknowledged_warning_codes. A preflight_fingerprint that no longer matches is 409 approval_preflight_stale; a change while approving is 409 approval_conflict. Each of these carries the current preflight (fingerprint, blockers, warnings). Approved items are locked and their weeks refuse new or changed time (approved_timesheet_week_locked). Counts are 0 when nothing was submitted. Owners and administrators approve anyone; managers their teammates, and time on projects they manage with approve_managed_projects (never their own); others 403. ${COMMON}`,
        body: ApproveBody,
        response: {
          200: Type.Object({
            ...Counts,
            preflight_fingerprint: Type.String(),
            acknowledged_warning_codes: Type.Array(Type.String(), { description: 'The warning codes acknowledged by this approval, sorted.' }),
          }),
          ...errors,
        },
      },
    },
    async (request) => approve(requestDb(request), principalOf(request), request.body, app.config.clock()),
  );

  app.post(
    '/api/v2/approvals/reject',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: approvalsEnabled,
      schema: {
        tags,
        summary: "Return a person's submitted time and expenses for correction",
        description: `Submitted items in the period (on project_id, when given) become rejected; the person may edit them and submit them again. The reason goes to the e-mail to the person and to the audit log. Counts are 0 when nothing was submitted. Who may: as for approve. ${COMMON}`,
        body: RejectBody,
        response: { 200: Type.Object(Counts), ...errors },
      },
    },
    async (request) => reject(requestDb(request), principalOf(request), request.body, app.config.clock(), publicUrlOf(app.config)),
  );
}
