import type { FastifyInstance } from 'fastify';

/** Text bodies at least this long (in UTF-16 code units) go to the socket as bytes encoded here. */
export const ENCODE_AT = 64 * 1024;

/**
 * A large text body as UTF-8 bytes, anything else as it is. Node writes a string body to the
 * socket through V8's own UTF-8 writer, which took ~4 ms of the server's event loop for a
 * 1.1 MB page of 2,000 projects; Buffer.from encodes the same string in well under 1 ms
 * (Node's SIMD encoder). The bytes, Content-Length and Content-Type are the same either way
 * (issue 24; docs/decisions.md, "Hot paths: the projects list").
 */
export function encodeLargeBody(payload: unknown): unknown {
  return typeof payload === 'string' && payload.length >= ENCODE_AT ? Buffer.from(payload) : payload;
}

/**
 * Registered as an app-level onSend hook, so it runs before the route-level ones
 * (idempotency's, compression's), which take Buffers as they take strings.
 */
export function registerBodyEncoding(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every response.
  app.addHook('onSend', (_request, _reply, payload, done) => done(null, encodeLargeBody(payload)));
}
