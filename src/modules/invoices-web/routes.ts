import { Type, type Static } from '@sinclair/typebox';
import { requestDb } from '../../http/idempotency.ts';
import type { FastifyInstance } from 'fastify';
import { ErrorResponses, Nullable } from '../../http/schemas.ts';
import { principalOf } from '../../http/security.ts';
import { InvoiceSchema } from '../invoices/routes.ts';
import { recordPayment } from './payments.ts';

/** The web app's invoice routes the API does not have (issue 16 item 6): recording a payment. */

const PaymentBody = Type.Object(
  {
    amount: Type.Number({ description: 'More than 0, at most the amount due, in the minor units of the invoice currency.' }),
    paid_date: Type.String({ format: 'date', description: 'YYYY-MM-DD.' }),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  },
  { additionalProperties: false },
);

export async function invoicesWebRoutes(app: FastifyInstance) {
  app.post(
    '/web/api/invoices/:id/payments',
    {
      config: { access: 'administrator', web: true, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'recordInvoicePayment',
        summary: 'Record a payment on an open invoice',
        description:
          'Web app only (the API records no payments). Owners and administrators. Partial payments add up; the payment that ' +
          'brings the amount due to 0 marks the invoice paid; send an Idempotency-Key so a repeated click records it once. Not open: 409. More than is due, 0 or too many decimals: 400 naming amount.',
        params: Type.Object({ id: Type.String() }),
        body: PaymentBody,
        response: { 201: InvoiceSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const body = request.body as Static<typeof PaymentBody>;
      const { id } = request.params as { id: string };
      const invoice = await recordPayment(requestDb(request), p.companyId, id, { ...body, amount: String(body.amount) }, { now: app.config.clock(), actorId: p.userId });
      return reply.code(201).send(invoice);
    },
  );
}
