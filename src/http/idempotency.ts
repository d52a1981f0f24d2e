import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import { stringify as stableStringify } from 'safe-stable-stringify';
import type { Principal } from '../auth/principal.ts';
import { SharedTransaction } from '../db/shared-transaction.ts';
import { withTenant, type Tx } from '../db/tenant.ts';
import type { DB } from '../db/types.ts';
import { ApiError } from '../errors.ts';
import { pauseAt } from '../test-pause.ts';
import { appendRouteHook } from './route-hooks.ts';

/**
 * `Idempotency-Key` (Stripe's model) for routes that declare `config.idempotent`.
 * A key is stored per workspace, credential and key with a hash of the method,
 * path and body, and of the caller's permissions. A replay within 24 hours returns
 * the first response byte for byte (with `Idempotent-Replayed: true`). The same key
 * with other input, while the first request is still running, or after the
 * caller's permissions changed is a 409. A 409 or 5xx answer undoes the work and
 * releases the key, so a corrected retry can use it.
 *
 * Crash safety: the request's work and its stored response commit in one
 * transaction (a SharedTransaction, which the route's service reaches through
 * requestDb), so a process that dies at any point either committed both (the
 * retry gets the response) or neither (the retry does the work, once). A key in
 * use is not a row but a transaction-scoped advisory lock taken when that
 * transaction opens: PostgreSQL releases it with the rollback when the process
 * or its connection dies, so no lease has to expire. Within one process a set of
 * keys in flight answers the 409 without a database round trip (and without
 * queueing behind the holder on PGlite, where one transaction holds the database).
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const KEY_PATTERN = /^[A-Za-z0-9._-]{8,255}$/;
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];

export interface IdempotencyState {
  companyId: string;
  credentialKey: string;
  key: string;
}

/** A request that holds its key: what it will store, and the transaction its work runs in. */
export interface IdempotencyClaim {
  state: IdempotencyState;
  /** The key's name in this process's set of keys in flight (and in its advisory lock). */
  id: string;
  requestHash: string;
  permissionHash: string;
  now: Date;
  work: SharedTransaction;
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

/**
 * The database a route's work runs on: for a request that holds an
 * Idempotency-Key, a handle whose withTenant calls join the request's shared
 * transaction, so the work commits with the stored response. Every idempotent
 * route passes this to its service instead of `app.db`.
 */
export function requestDb(request: FastifyRequest): Kysely<DB> {
  return request.idempotency?.work.handle ?? request.server.db;
}

const inUse = () => new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress.');

/**
 * The key's transaction-scoped advisory lock (a 64-bit hash of the key's name; the
 * prefix keeps it apart from the other locks of the same key space). Inlined as a
 * literal so it rides in the transaction's first statement.
 */
const keyLock = (id: string) => sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${sql.lit(`idempotency/${id}`)}, 0))`;

export function registerIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotency', null);
  // Keys whose request runs in this process (other processes: the advisory lock).
  const inFlight = new Set<string>();

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
    const id = `${state.companyId}/${state.credentialKey}/${state.key}`;
    // Taken before the lookup and given back only after the commit, so a duplicate in
    // this process either sees it or comes after the stored response.
    if (inFlight.has(id)) throw inUse();
    inFlight.add(id);
    // The body with its keys sorted: JSON objects are unordered, so a retry whose client wrote the
    // same fields in another order is the same input and replays (the spec's 409 is for different input).
    const requestHash = sha256(`${request.method} ${request.url}\n${stableStringify(request.body ?? null)}`);
    const permHash = permissionHash(principal);
    const now = app.config.clock();

    let existing;
    try {
      existing = await withTenant(app.db, state.companyId, (trx) => storedResponse(trx, state, now));
    } catch (err) {
      inFlight.delete(id);
      throw err;
    }
    if (!existing) {
      const work = new SharedTransaction(app.db, state.companyId, {
        prelude: { locked: keyLock(id) },
        // Another process holds the key, or stored its response since the lookup above
        // (the lock is taken in an earlier statement than this read, so its commit is seen).
        check: async (trx, first) => {
          if (!first.locked || (await storedResponse(trx, state, now))) throw inUse();
        },
      });
      request.idempotency = { state, id, requestHash, permissionHash: permHash, now, work };
      return;
    }
    inFlight.delete(id);
    if (existing.request_hash !== requestHash) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
    }
    if (existing.permission_hash !== permHash) throw permissionChanged();
    for (const [name, value] of Object.entries(existing.response_headers ?? {})) reply.header(name, value as string);
    reply.header('Idempotent-Replayed', 'true');
    return reply.code(existing.status_code!).send(existing.response_body);
  };

  const onSend: onSendAsyncHookHandler = async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    try {
      if (reply.statusCode >= 500 || reply.statusCode === 409) {
        await claim.work.rollback();
        return payload;
      }
      // A failure here rolls the work back too and answers with the error instead.
      await complete(app, claim, reply, typeof payload === 'string' ? payload : String(payload ?? ''));
    } finally {
      inFlight.delete(claim.id);
    }
    await pauseAt('idempotency-committed');
    return payload;
  };

  // A request that failed before onSend (client gone, crash in a hook) must not hold the key.
  const onResponse: onResponseAsyncHookHandler = async (request) => {
    const claim = request.idempotency;
    if (!claim) return;
    request.idempotency = null;
    inFlight.delete(claim.id);
    await claim.work.rollback();
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

/** The key's stored response, unless it has expired. */
function storedResponse(trx: Tx, state: IdempotencyState, now: Date) {
  return keyFilter(state)(trx.selectFrom('idempotency_keys').selectAll())
    .where('state', '=', 'completed')
    .where('created_at', '>=', new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS))
    .executeTakeFirst() as Promise<Selectable<DB['idempotency_keys']> | undefined>;
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

/**
 * Stores the response: in the request's shared transaction, which commits it with
 * the work; or, when the request did no database work, on its own (unless another
 * request stored the key meanwhile). The row replaces an expired one, or an
 * 'in_flight' row left by an earlier version of sheaf (which reserved keys with a row).
 */
async function complete(app: FastifyInstance, claim: IdempotencyClaim, reply: FastifyReply, body: string) {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  const { state, now } = claim;
  const store = (trx: Tx) =>
    trx
      .insertInto('idempotency_keys')
      .values({
        company_id: state.companyId,
        credential_key: state.credentialKey,
        key: state.key,
        request_hash: claim.requestHash,
        permission_hash: claim.permissionHash,
        state: 'completed',
        status_code: reply.statusCode,
        response_headers: JSON.stringify(headers),
        response_body: body,
        created_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['company_id', 'credential_key', 'key'])
          .doUpdateSet((eb) => ({
            request_hash: eb.ref('excluded.request_hash'),
            permission_hash: eb.ref('excluded.permission_hash'),
            state: eb.ref('excluded.state'),
            status_code: eb.ref('excluded.status_code'),
            response_headers: eb.ref('excluded.response_headers'),
            response_body: eb.ref('excluded.response_body'),
            created_at: now,
          }))
          .where((eb) =>
            eb.or([
              eb('idempotency_keys.state', '<>', 'completed'),
              eb('idempotency_keys.created_at', '<', new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)),
            ]),
          ),
      )
      .execute()
      .then(() => undefined);
  if (!(await claim.work.commit(store))) await withTenant(app.db, state.companyId, store);
}
