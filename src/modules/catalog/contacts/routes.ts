import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { ApiError } from '../../../errors.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { presentContact } from './presenter.ts';
import { CONTACT_LIMITS, CONTACT_READ_ONLY, type ContactInput } from './rules.ts';
import { createContact, listContacts } from './service.ts';

const text = (field: keyof typeof CONTACT_LIMITS) => Nullable(Type.String({ maxLength: CONTACT_LIMITS[field] }));

const ContactCreateBody = Type.Object(
  {
    client_id: Type.String({ description: 'A client of the workspace that the caller sees.' }),
    first_name: Type.String({ minLength: 1, maxLength: CONTACT_LIMITS.first_name }),
    last_name: Type.Optional(text('last_name')),
    title: Type.Optional(text('title')),
    email: Type.Optional(
      Nullable(Type.String({ maxLength: CONTACT_LIMITS.email, format: 'email', description: 'A valid e-mail address.' })),
    ),
    phone_office: Type.Optional(text('phone_office')),
    phone_mobile: Type.Optional(text('phone_mobile')),
    fax: Type.Optional(text('fax')),
  },
  { additionalProperties: false },
);

export const ContactSchema = Type.Object(
  {
    id: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    first_name: Type.String(),
    last_name: Type.String({ description: 'Empty when none was given.' }),
    title: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone_office: Nullable(Type.String()),
    phone_mobile: Nullable(Type.String()),
    fax: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: "The later of the contact's and its client's last change." }),
  },
  { additionalProperties: false },
);

const ContactsQuery = Type.Object(
  {
    client_id: Type.Optional(Type.String({ format: 'uuid', description: "Only this client's contacts." })),
    updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 date-time.' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

const rejectReadOnly: preValidationAsyncHookHandler = async (request) => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const field of CONTACT_READ_ONLY) {
    if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', `'${field}' is read-only and cannot be set.`, { field });
  }
};

export async function contactsRoutes(app: FastifyInstance) {
  app.get(
    '/api/v2/contacts',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['contacts'],
        summary: 'List contacts',
        description:
          'Contacts of the clients the caller sees, by last name, first name, id. Not available to personal sync keys.',
        querystring: ContactsQuery,
        response: { 200: Type.Object({ contacts: Type.Array(ContactSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const query = request.query as Static<typeof ContactsQuery>;
      const page = pageParams(query);
      const { rows, total } = await listContacts(
        app.db,
        p,
        { clientId: query.client_id, updatedSince: query.updated_since ? new Date(query.updated_since) : undefined },
        page,
      );
      return { contacts: rows.map(presentContact), ...pageEnvelope(request, page, total) };
    },
  );

  app.post(
    '/api/v2/contacts',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true },
      preValidation: rejectReadOnly,
      schema: {
        tags: ['contacts'],
        summary: 'Create a contact',
        description:
          'Needs owner, administrator, or manager with Edit clients and tasks. `client_id` must be a client of the workspace the caller sees (else 400 naming `client_id`). Accepts an `Idempotency-Key`.',
        body: ContactCreateBody,
        response: { 201: ContactSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const row = await createContact(requestDb(request), principalOf(request), request.body as ContactInput, app.config.clock());
      return reply.code(201).send(presentContact(row));
    },
  );
}
