import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { presentContact } from './presenter.ts';
import { CONTACT_READ_ONLY } from './rules.ts';
import { ContactCreateBody } from './schemas.ts';
import { rejectReadOnly, type TypedApp, UpdatedSince, updatedSinceOf } from '../../../http/route-kit.ts';
import { createContact, listContacts } from './service.ts';

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
    updated_since: UpdatedSince('only contacts updated at or after it.'),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export async function contactsRoutes(app: TypedApp) {
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
      const query = request.query;
      const page = pageParams(query);
      const { rows, total } = await listContacts(
        app.db,
        p,
        { clientId: query.client_id, updatedSince: updatedSinceOf(query.updated_since) },
        page,
      );
      return { contacts: rows.map(presentContact), ...pageEnvelope(request, page, total) };
    },
  );

  app.post(
    '/api/v2/contacts',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: CONTACT_READ_ONLY }),
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
      const row = await createContact(requestDb(request), principalOf(request), request.body, app.config.clock());
      return reply.code(201).send(presentContact(row));
    },
  );
}
