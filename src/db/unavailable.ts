/**
 * Whether an error means the database cannot be reached right now (a refused,
 * reset or timed-out connection, a server shutting down or restarting, a
 * connection the server or a proxy terminated), as opposed to a fault of the
 * request. Such a request is answered 503 with Retry-After: nothing about it was
 * wrong, and a retry after the outage succeeds.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// 57P01 admin_shutdown (pg_terminate_backend too), 57P02 crash_shutdown, 57P03 cannot_connect_now.
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);
const CLIENT_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return CLIENT_MESSAGES.some((m) => message.startsWith(m));
}
