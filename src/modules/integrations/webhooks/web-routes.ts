import { Type } from '@sinclair/typebox';
import { requestDb } from '../../../http/idempotency.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { DeliverySchema, EndpointCreateBody, EndpointPatchBody, EndpointSchema, EndpointWithSecretSchema } from './schemas.ts';
import { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, LOG_PAGE_MAX, resendDelivery, rotateSecret, updateEndpoint } from './service.ts';

/**
 * Webhook endpoints in the web app (`/web/api/webhook_endpoints`), for owners and
 * administrators: the spec names webhooks only as a backup resource, so these are
 * session-only; operators have `sheaf admin webhook`. docs/webhooks.md describes what is sent.
 */

const READ_ONLY = ['id', 'disabled_reason', 'disabled_at', 'previous_secret_valid_until', 'created_by', 'pending_count', 'failed_count', 'created_at', 'updated_at', 'secret'];

const DeliveryParams = Type.Object({ id: Type.String(), delivery_id: Type.String() }, { additionalProperties: false });

export async function webhooksWebRoutes(app: TypedApp) {
  const config = { access: 'administrator', web: true } as const;
  const tags = ['web'];
  const deps = () => ({ allowPrivate: app.config.webhookAllowPrivate });

  app.get(
    '/web/api/webhook_endpoints',
    {
      config,
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description: 'Every endpoint of the workspace, oldest first, with counts of deliveries pending and failed; never a secret.',
        querystring: NoQuery,
        response: { 200: Type.Object({ webhook_endpoints: Type.Array(EndpointSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ webhook_endpoints: await listEndpoints(app.db, principalOf(request), app.config.clock()) }),
  );

  app.get(
    '/web/api/webhook_endpoints/:id',
    {
      config,
      schema: { tags, operationId: 'getWebhookEndpoint', summary: 'Get a webhook endpoint', params: IdParams, querystring: NoQuery, response: { 200: EndpointSchema, ...ErrorResponses } },
    },
    async (request) => getEndpoint(app.db, principalOf(request), request.params.id, app.config.clock()),
  );

  app.post(
    '/web/api/webhook_endpoints',
    {
      // Not idempotent by key, as API keys are not: a replay would show the signing secret again,
      // and the stored response would keep it in clear for a day.
      config,
      preValidation: rejectReadOnly({ readOnly: READ_ONLY }),
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        description:
          'A URL that is not http(s), carries a user name or password, or points at a private, loopback or link-local address (unless the operator allows them) is 400 naming url; an unknown event kind is 400 naming events. The answer carries the signing secret, this once.',
        body: EndpointCreateBody,
        response: { 201: EndpointWithSecretSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createEndpoint(requestDb(request), principalOf(request), request.body, deps(), app.config.clock())),
  );

  app.patch(
    '/web/api/webhook_endpoints/:id',
    {
      config,
      preValidation: rejectReadOnly({ readOnly: READ_ONLY }),
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description: 'The URL and events as on create. Turning it on again sends what waited, and makes the caller the administrator whose view the payloads carry.',
        params: IdParams,
        body: EndpointPatchBody,
        response: { 200: EndpointSchema, ...ErrorResponses },
      },
    },
    async (request) => updateEndpoint(app.db, principalOf(request), request.params.id, request.body, deps(), app.config.clock()),
  );

  app.post(
    '/web/api/webhook_endpoints/:id/rotate_secret',
    {
      config,
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description: 'A new secret, in the answer this once; for 24 hours deliveries carry a second signature with the previous one, so the receiver can switch without a gap.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: EndpointWithSecretSchema, ...ErrorResponses },
      },
    },
    async (request) => rotateSecret(app.db, principalOf(request), request.params.id, app.config.clock()),
  );

  app.delete(
    '/web/api/webhook_endpoints/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'With its delivery log; what it had not been sent is not sent.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(app.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/web/api/webhook_endpoints/:id/deliveries',
    {
      config,
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "An endpoint's delivery log",
        description: 'Newest first; deliveries are kept 30 days after they were delivered or failed. `before`: the `cursor` of the last one shown, for older ones.',
        params: IdParams,
        querystring: Type.Object(
          {
            per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: LOG_PAGE_MAX, default: 50 })),
            before: Type.Optional(Type.String({ description: 'A delivery\u2019s cursor.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ deliveries: Type.Array(DeliverySchema), next_before: Type.Union([Type.String(), Type.Null()]) }), ...ErrorResponses },
      },
    },
    async (request) => listDeliveries(app.db, principalOf(request), request.params.id, request.query),
  );

  app.post(
    '/web/api/webhook_endpoints/:id/deliveries/:delivery_id/resend',
    {
      config,
      schema: {
        tags,
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivery again',
        description: 'The same webhook-id and body, due at once (after the record\u2019s earlier deliveries, and once the endpoint is on).',
        params: DeliveryParams,
        querystring: NoQuery,
        response: { 200: DeliverySchema, ...ErrorResponses },
      },
    },
    async (request) => resendDelivery(app.db, principalOf(request), request.params.id, request.params.delivery_id),
  );
}
