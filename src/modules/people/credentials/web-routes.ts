import { Type } from '@sinclair/typebox';
import { IdParams, type TypedApp } from '../../../http/route-kit.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { NewKey } from './schemas.ts';
import { createWebKey, listWebKeys, revokeWebKey, rotateWebKey, ROTATION_OVERLAP_MS } from './service.ts';

/**
 * Settings -> API and Developers (web-only routes): the Company ID and the API
 * keys. The rules of who may do what are in service.ts. A key's secret is in
 * the response that creates it and never again.
 */

const Key = Type.Object({
  id: Type.String(),
  kind: Enum(['integration', 'personal'], 'integration: full access; personal: read-only sync'),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it (never the secret)' }),
  user: Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The member the key acts as' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: OrNull(Type.String({ format: 'date-time', description: 'Updated at most once a minute' })),
  expires_at: OrNull(Type.String({ format: 'date-time', description: 'Set on a rotated key: it stops working then' })),
  revoked_at: OrNull(Type.String({ format: 'date-time' })),
  may_revoke: Type.Boolean({ description: 'Whether the caller may revoke it (a key that acts as an owner: only an owner)' }),
});

const Issued = Type.Object({
  key: Key,
  secret: Type.String({ description: 'The key itself: shown this once, never stored. Send it as "Authorization: Bearer <secret>".' }),
});

const signedIn = { access: 'authenticated', web: true } as const;
const tags = ['web'];

export async function credentialsWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();

  app.get(
    '/web/api/keys',
    {
      config: signedIn,
      schema: {
        tags,
        operationId: 'listKeys',
        summary: 'The Company ID (the Service-Account-Id value) and the API keys',
        description: 'Owners and administrators see every key of the workspace; others the keys bound to themselves. Never a secret.',
        response: { 200: Type.Object({ company_id: Type.String(), keys: Type.Array(Key) }), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return { company_id: p.companyId, keys: await listWebKeys(app.db, p) };
    },
  );

  app.post(
    '/web/api/keys',
    {
      config: signedIn,
      schema: {
        tags,
        operationId: 'createKey',
        summary: 'Create a key; its secret is in this response only',
        description:
          'integration (full access): owners and administrators, bound to a human or agent member. ' +
          'personal (read-only sync): for yourself, one live key per workspace; not for client memberships or agents.',
        body: NewKey,
        response: { 201: Issued, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createWebKey(app.db, principalOf(request), request.body)),
  );

  app.post(
    '/web/api/keys/:id/rotate',
    {
      config: signedIn,
      schema: {
        tags,
        operationId: 'rotateKey',
        summary: 'Replace a key with a new one; the previous one keeps working for 15 minutes',
        description: `The previous key stops ${ROTATION_OVERLAP_MS / 60000} minutes after the rotation (or at once when revoked). Personal keys are rotated by their owner only.`,
        params: IdParams,
        response: { 201: Issued, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await rotateWebKey(app.db, principalOf(request), request.params.id, now())),
  );

  app.delete(
    '/web/api/keys/:id',
    {
      config: signedIn,
      schema: {
        tags,
        operationId: 'revokeKey',
        summary: 'Revoke a key at once (with the previous key of its rotation)',
        params: IdParams,
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await revokeWebKey(app.db, principalOf(request), request.params.id, now());
      return reply.code(204).send(null);
    },
  );
}
