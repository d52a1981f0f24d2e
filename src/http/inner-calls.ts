import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Requests the server makes to itself (`app.inject`) on behalf of a request it is
 * already answering: the MCP server at /mcp implements each tool by calling the
 * public API with the caller's own credential. The outer request was counted by
 * the rate limiter; its inner calls are not counted again (src/http/rate-limit.ts).
 *
 * They are marked by a header holding a random value made at start and never sent
 * anywhere, and only an injected request (never one from the network) may carry it,
 * so no client can claim the exemption. Authentication and access run for inner
 * calls as for any request.
 */
const INNER_CALL_HEADER = 'x-sheaf-inner-call';
const TOKEN = Buffer.from(randomBytes(24).toString('base64url'));

/** The header that marks a request as an inner call, for `app.inject`. */
export function innerCallHeaders(): Record<string, string> {
  return { [INNER_CALL_HEADER]: TOKEN.toString() };
}

export function isInnerCall(request: FastifyRequest): boolean {
  const value = request.headers[INNER_CALL_HEADER];
  if (typeof value !== 'string' || value.length !== TOKEN.length) return false;
  // light-my-request's requests carry this property; a socket's never do.
  return '_lightMyRequest' in request.raw && timingSafeEqual(Buffer.from(value), TOKEN);
}
