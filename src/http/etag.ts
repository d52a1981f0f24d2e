import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/**
 * Strong ETags: a hash of the exact permission-filtered JSON body of the item, so
 * two callers who see different fields get different tags.
 */
export function etagOf(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 32)}"`;
}

/**
 * Checks `If-Match` against the record's current ETag: a stale tag is 412, a
 * missing one 428 where the operation requires it (permanent deletes). `*`
 * matches any existing record. Weak tags never match (strong comparison).
 * Whether it is required is the route's `config.ifMatch`, which the OpenAPI
 * document also reads (src/http/openapi.ts), so the two never disagree.
 */
export function checkIfMatch(request: FastifyRequest, currentEtag: string, { required = request.routeOptions.config.ifMatch === 'required' } = {}) {
  const header = request.headers['if-match'];
  if (header === undefined || header === '') {
    if (required) throw new ApiError('precondition_required', 'This request requires an If-Match header with the current ETag.');
    return;
  }
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(currentEtag)) return;
  throw new ApiError('precondition_failed', 'The record has changed since you read it (If-Match does not match its ETag).');
}

/**
 * Whether `If-None-Match` names the current ETag (or is `*`): the caller's copy is current and
 * a GET answers 304. Weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`.
 */
export function matchesIfNoneMatch(request: FastifyRequest, currentEtag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === currentEtag;
  });
}
