import { requestDb } from '../../../http/idempotency.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { EtagHeader, IdParams, NoQuery, readById, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { Type } from '@sinclair/typebox';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { InvoiceCreateBody, InvoiceSchema, LineTaxesBody, PaymentBody, PaymentParams, PaymentSchema, explainUnsupported } from './schemas.ts';
import { previewInvoice, setLineTaxes, transitionInvoiceById } from './service.ts';
import { deletePayment, listPayments, recordPayment } from './payments.ts';
import { SuggestedRecipientsSchema, invoiceRecipients } from './recipients.ts';

/**
 * The web app's invoice routes the API does not have (issue 16 item 6, issue 25
 * item 5): recording, listing and deleting payments, previewing an invoice before creating it, closing and voiding,
 * and changing which taxes a draft's lines bear.
 */

export async function invoicesWebRoutes(app: TypedApp) {
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
        params: IdParams,
        body: PaymentBody,
        response: { 201: InvoiceSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const invoice = await recordPayment(requestDb(request), principalOf(request), request.params.id, request.body, app.config.clock());
      return reply.code(201).send(invoice);
    },
  );

  app.get(
    '/web/api/invoices/:id/payments',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags: ['web'],
        operationId: 'listInvoicePayments',
        summary: 'List the payments recorded on an invoice',
        description: 'Web app only (the API lists no payments). Whoever may read the invoice; oldest first (by the date paid).',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ payments: Type.Array(PaymentSchema) }, { additionalProperties: false }), ...ErrorResponses },
      },
    },
    async (request) => ({ payments: await listPayments(app.db, principalOf(request), request.params.id) }),
  );

  app.delete(
    '/web/api/invoices/:id/payments/:paymentId',
    {
      config: { access: 'administrator', web: true },
      schema: {
        tags: ['web'],
        operationId: 'deleteInvoicePayment',
        summary: 'Delete a wrongly recorded payment',
        description:
          'Web app only. Owners and administrators, on an open or paid invoice (409 otherwise). A paid invoice that has an amount due again goes back to open. ' +
          'Returns the invoice; a payment already deleted (or of another invoice) is 404.',
        params: PaymentParams,
        response: { 200: InvoiceSchema, ...ErrorResponses },
      },
    },
    async (request) =>
      deletePayment(requestDb(request), principalOf(request), request.params.id, request.params.paymentId, app.config.clock()),
  );

  app.post(
    '/web/api/invoices/preview',
    {
      config: { access: INVOICE_ACCESS, web: true },
      preValidation: explainUnsupported,
      schema: {
        tags: ['web'],
        operationId: 'previewInvoice',
        summary: 'Preview the invoice a create would make',
        description:
          'Web app only. Takes the body of POST /api/v2/invoices and runs the same create (checks, import of tracked work, prices, totals, number) ' +
          'in a transaction that is always rolled back: nothing is created, no time or expense becomes billed, no number is used. ' +
          'The ids in the answer are not stored. Same permissions and errors as the create.',
        body: InvoiceCreateBody,
        response: { 200: InvoiceSchema, ...ErrorResponses },
      },
    },
    async (request) => previewInvoice(app.db, principalOf(request), request.body, app.config.clock()),
  );

  app.patch(
    '/web/api/invoices/:id/line_taxes',
    {
      config: { access: INVOICE_ACCESS, web: true, idempotent: true, ifMatch: 'optional' },
      schema: {
        tags: ['web'],
        operationId: 'setInvoiceLineTaxes',
        summary: "Set which taxes a draft's lines bear",
        description:
          "Web app only (the API's PATCH edits a line's description, unit_price and kind, as the spec says). Sets `taxed` and/or " +
          '`taxed2` on lines of a draft, by id; the totals are recalculated. Whoever may PATCH the draft, with the same checks in ' +
          'the same order: unknown, other-workspace and out-of-reach ids 404, a stale optional `If-Match` 412, anything but a ' +
          'draft 409 naming its state, a line not of the invoice, given twice or with neither flag 400 naming it, a retainer ' +
          'line taxed 400; unknown fields 400. Recorded as PATCH records an edit (audit entry, `invoice.updated`). Returns the invoice.',
        params: IdParams,
        body: LineTaxesBody,
        response: { 200: { ...InvoiceSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const body = await setLineTaxes(requestDb(request), principalOf(request), request.params.id, request.body, {
        now: app.config.clock(),
        precondition: (current) => checkIfMatch(request, etagOf(current)),
      });
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  const TRANSITION_ROUTES = [
    {
      transition: 'close',
      operationId: 'closeInvoice',
      summary: 'Close an open invoice',
      what: 'Closed: written off without full payment. An invoice already closed is returned unchanged',
    },
    {
      transition: 'void',
      operationId: 'voidInvoice',
      summary: 'Void an open invoice',
      what: 'Voided: cancelled; its time and expenses stay billed. An invoice already voided is returned unchanged',
    },
    {
      transition: 'mark-paid',
      operationId: 'markInvoicePaid',
      summary: 'Mark an open invoice paid',
      what:
        'Paid in full: what is still due is recorded as a payment dated today in the workspace zone; an invoice its ' +
        'retainer credit covers (nothing due) records none. An invoice already paid is returned unchanged',
    },
  ] as const;
  for (const { transition, operationId, summary, what } of TRANSITION_ROUTES) {
    app.post(
      `/web/api/invoices/:id/${transition}`,
      {
        config: { access: 'administrator', web: true, idempotent: true },
        schema: {
          tags: ['web'],
          operationId,
          summary,
          description:
            `Web app only, owners and administrators (as \`sheaf admin invoice ${transition}\`, the same rule). ` +
            `${what}; any other state than open is 409 with its state.`,
          params: IdParams,
          response: { 200: InvoiceSchema, ...ErrorResponses },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const { id } = request.params;
        return transitionInvoiceById(requestDb(request), p, id, transition, { now: app.config.clock() });
      },
    );
  }

  app.get(
    '/web/api/invoices/:id/recipients',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags: ['web'],
        operationId: 'getInvoiceRecipients',
        summary: "Who the invoice's e-mails go to first: the client's invoice e-mail address, else its contacts with an e-mail",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: SuggestedRecipientsSchema, ...ErrorResponses },
      },
    },
    readById(app, invoiceRecipients),
  );
}
