import { Type } from '@sinclair/typebox';
import { requestDb } from '../../../http/idempotency.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { IdParams, NoQuery, rejectReadOnly, readById, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { ScheduleCreateBody, SchedulePatchBody, ScheduleSchema } from './schemas.ts';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, updateSchedule } from './service.ts';

/**
 * Recurring invoices in the web app (`/web/api/recurring_invoices`): the spec
 * names no API route for them, so they are session-only, for owners and
 * administrators; the operator has `sheaf admin recurring list|run-due`.
 */

const READ_ONLY = ['id', 'client', 'next_run_date', 'occurrences', 'created_at', 'updated_at'];

export async function recurringInvoicesWebRoutes(app: TypedApp) {
  const access = { access: 'administrator', web: true } as const;

  app.get(
    '/web/api/recurring_invoices',
    {
      config: access,
      schema: {
        tags: ['web'],
        operationId: 'listRecurringInvoices',
        summary: 'List recurring invoice schedules',
        description: 'Every schedule of the workspace by client name, each with its latest 12 occurrences (newest first).',
        querystring: NoQuery,
        response: { 200: Type.Object({ recurring_invoices: Type.Array(ScheduleSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ recurring_invoices: await listSchedules(app.db, principalOf(request)) }),
  );

  app.get(
    '/web/api/recurring_invoices/:id',
    {
      config: access,
      schema: {
        tags: ['web'],
        operationId: 'getRecurringInvoice',
        summary: 'Get a recurring invoice schedule',
        description: 'With all its occurrences, newest first, and the invoices they made.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ScheduleSchema, ...ErrorResponses },
      },
    },
    readById(app, getSchedule),
  );

  app.post(
    '/web/api/recurring_invoices',
    {
      config: { ...access, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: READ_ONLY }),
      schema: {
        tags: ['web'],
        operationId: 'createRecurringInvoice',
        summary: 'Create a recurring invoice schedule',
        description:
          'Template lines are checked as an invoice create checks them. The first occurrence is the first matching day on or after ' +
          'today and the start date. An end date before the start date is 400 naming end_date; nothing is written.',
        body: ScheduleCreateBody,
        response: { 201: ScheduleSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const body = await createSchedule(requestDb(request), principalOf(request), request.body, app.config.clock());
      return reply.code(201).send(body);
    },
  );

  app.patch(
    '/web/api/recurring_invoices/:id',
    {
      config: access,
      preValidation: rejectReadOnly({ readOnly: [...READ_ONLY, 'client_id'] }),
      schema: {
        tags: ['web'],
        operationId: 'updateRecurringInvoice',
        summary: 'Change, pause or resume a recurring invoice schedule',
        description:
          'Any writable property (the client stays). A changed calendar, or a resume, restarts from today: missed dates are not made up for. ' +
          'Pausing keeps the next date; nothing is made while paused.',
        params: IdParams,
        body: SchedulePatchBody,
        response: { 200: ScheduleSchema, ...ErrorResponses },
      },
    },
    async (request) => updateSchedule(app.db, principalOf(request), request.params.id, request.body, app.config.clock()),
  );

  app.delete(
    '/web/api/recurring_invoices/:id',
    {
      config: access,
      schema: {
        tags: ['web'],
        operationId: 'deleteRecurringInvoice',
        summary: 'Delete a recurring invoice schedule',
        description: 'The schedule and its occurrence records go; the invoices it made stay.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await deleteSchedule(app.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
