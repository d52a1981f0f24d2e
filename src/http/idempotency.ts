import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { withTenant } from '../db/tenant.ts';
import { ApiError } from '../errors.ts';
import { appendRouteHook } from './route-hooks.ts';

/**
 * `Idempotency-Key` (Stripe's model) for routes that declare `config.idempotent`.
 * A key is stored per workspace, credential and key with a hash of the method,
 * path and body, and of the caller's permissions. A replay within 24 hours returns
 * the first response byte for byte (with `Idempotent-Replayed: true`). The same key
 * with other input, while the first request is still running, or after the
 * caller's permissions changed is a 409. A 409 or 5xx answer releases the key so a
 * corrected retry can use it.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[A-Za-z0-9._-]{8,255}$/;
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];

export interface IdempotencyState {
  companyId: string;
  credentialKey: string;
  key: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

function credentialKeyOf(p: Principal) {
  // A JWT or a browser session has no credential row: the person is the credential.
  return p.credentialId ?? `${p.kind}:${p.userId}`;
}

/** Where a key is stored: per workspace, credential and key. */
const keyStateOf = (p: Principal, key: string): IdempotencyState => ({ companyId: p.companyId, credentialKey: credentialKeyOf(p), key });

function permissionHash(p: Principal) {
  return sha256(JSON.stringify([p.role, [...p.permissions].sort(), p.isContractor, p.isActive, p.userType]));
}

export function registerIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotency', null);

  const preHandler: preHandlerAsyncHookHandler = async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new ApiError('invalid_request', 'Idempotency-Key must be 8 to 255 letters, digits, dots, underscores or hyphens.', {
        field: 'Idempotency-Key',
      });
    }
    const principal = request.principal!;
    const state = keyStateOf(principal, header);
    const requestHash = sha256(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
    const permHash = permissionHash(principal);
    const now = app.config.clock();

    const existing = await withTenant(app.db, state.companyId, async (trx) => {
      const match = keyFilter(state);
      await match(trx.deleteFrom('idempotency_keys'))
        .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS))
        .execute();
      const inserted = await trx
        .insertInto('idempotency_keys')
        .values({
          company_id: state.companyId,
          credential_key: state.credentialKey,
          key: state.key,
          request_hash: requestHash,
          permission_hash: permHash,
          state: 'in_flight',
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return null;
      return match(trx.selectFrom('idempotency_keys').selectAll()).executeTakeFirstOrThrow();
    });

    if (!existing) {
      request.idempotency = state;
      return;
    }
    if (existing.request_hash !== requestHash) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
    }
    if (existing.permission_hash !== permHash) throw permissionChanged();
    if (existing.state === 'in_flight') {
      throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress.');
    }
    for (const [name, value] of Object.entries(existing.response_headers ?? {})) reply.header(name, value as string);
    reply.header('Idempotent-Replayed', 'true');
    return reply.code(existing.status_code!).send(existing.response_body);
  };

  const onSend: onSendAsyncHookHandler = async (request, reply, payload) => {
    const state = request.idempotency;
    if (!state) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500 || reply.statusCode === 409) await release(app, state);
    else await complete(app, state, reply, typeof payload === 'string' ? payload : String(payload ?? ''));
    return payload;
  };

  // A request that failed before onSend (client gone, crash in a hook) must not hold the key.
  const onResponse: onResponseAsyncHookHandler = async (request) => {
    if (request.idempotency) await release(app, request.idempotency);
  };

  // Only routes that accept Idempotency-Key get the hooks; every other request skips
  // three async hooks (and their promises).
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    appendRouteHook(route, 'preHandler', preHandler);
    appendRouteHook(route, 'onSend', onSend);
    appendRouteHook(route, 'onResponse', onResponse);
  });
}

/**
 * The 409 of a key replayed after the caller's permissions changed, for a request
 * the route's access check is about to refuse (403): the spec answers key reuse
 * "after a permission change" with 409, also when the change took the
 * permission away. Null when the key is unknown, expired, or the permissions are
 * the same (the 403 stands).
 */
export async function permissionChangedReplay(app: FastifyInstance, request: FastifyRequest): Promise<ApiError | null> {
  const header = request.headers['idempotency-key'];
  const principal = request.principal;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header) || !principal) return null;
  const state = keyStateOf(principal, header);
  const since = new Date(app.config.clock().getTime() - IDEMPOTENCY_WINDOW_MS);
  const stored: { permission_hash: string } | undefined = await withTenant(app.db, state.companyId, (trx) =>
    keyFilter(state)(trx.selectFrom('idempotency_keys').select('permission_hash')).where('created_at', '>=', since).executeTakeFirst(),
  );
  if (!stored || stored.permission_hash === permissionHash(principal)) return null;
  return permissionChanged();
}

const permissionChanged = () =>
  new ApiError('idempotency_permission_changed', 'Your permissions changed since this Idempotency-Key was first used; use a new key.');

function keyFilter(state: IdempotencyState) {
  return (qb: any) =>
    qb.where('company_id', '=', state.companyId).where('credential_key', '=', state.credentialKey).where('key', '=', state.key);
}

async function release(app: FastifyInstance, state: IdempotencyState) {
  await withTenant(app.db, state.companyId, (trx) => keyFilter(state)(trx.deleteFrom('idempotency_keys')).execute());
}

async function complete(app: FastifyInstance, state: IdempotencyState, reply: FastifyReply, body: string) {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  await withTenant(app.db, state.companyId, (trx) =>
    keyFilter(state)(
      trx.updateTable('idempotency_keys').set({
        state: 'completed',
        status_code: reply.statusCode,
        response_headers: JSON.stringify(headers),
        response_body: body,
      }),
    ).execute(),
  );
}
