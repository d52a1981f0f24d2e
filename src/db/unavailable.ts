import { ApiError } from '../errors.ts';

/**
 * Whether an error means the database cannot serve the request right now, as
 * opposed to a fault of the request: it cannot be reached (a refused, reset or
 * timed-out connection, a server shutting down or restarting, a connection the
 * server, a proxy or the idle-in-transaction timeout terminated, a stalled network,
 * no free pooled connection in time), or a bound on the wait ran out (a lock held
 * by another transaction, the statement limit). Such a request is answered 503 with
 * Retry-After: nothing about it was wrong, its transaction was rolled back, and a
 * retry once the outage or the contention is over succeeds.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// 57P01 admin_shutdown (pg_terminate_backend too), 57P02 crash_shutdown, 57P03 cannot_connect_now,
// 25P03 idle_in_transaction_session_timeout (the server closed the session).
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '25P03']);
const CLIENT_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  // query_timeout, the client's backstop for an answer that never comes (src/db/database.ts).
  'Query read timeout',
];
const LOCK_NOT_AVAILABLE = '55P03'; // lock_timeout
const QUERY_CANCELED = '57014'; // statement_timeout (or an operator's pg_cancel_backend)

type Unavailability = 'unreachable' | 'locked' | 'too_long';

function unavailability(err: unknown): Unavailability | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === LOCK_NOT_AVAILABLE) return 'locked';
  if (code === QUERY_CANCELED) return 'too_long';
  if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return 'unreachable';
  const message = typeof e.message === 'string' ? e.message : '';
  return CLIENT_MESSAGES.some((m) => message.startsWith(m)) ? 'unreachable' : null;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return unavailability(err) !== null;
}

const MESSAGES: Record<Unavailability, string> = {
  unreachable: 'The database cannot be reached right now; retry in a moment.',
  locked: 'Another operation holds a lock on the records this request needs; retry in a moment.',
  too_long: 'The request took longer than the database allows and was cancelled; retry in a moment.',
};

/** The 503 `service_unavailable` for such an error (its message says which), or null for any other error. */
export function unavailableError(err: unknown): ApiError | null {
  const kind = unavailability(err);
  return kind ? new ApiError('service_unavailable', MESSAGES[kind]) : null;
}
