import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/**
 * How request bodies are read: UTF-8 JSON, as the spec states ("Bodies are uncompressed UTF-8
 * `application/json`"). Fastify's own parser decodes the bytes with replacement, so a body in
 * another encoding (Latin-1 "Caf\xe9") was stored as "Caf\uFFFD", silently corrupted. Here the
 * bytes are checked first (Node's native validator) and a body that is not UTF-8 gets 400
 * invalid_json and changes nothing; a valid one goes to Fastify's parser unchanged (its
 * prototype-poisoning guard included). The charset parameter is not read: UTF-8 bytes are
 * accepted whatever a client declares, as before.
 *
 * An empty body is no body, whatever its Content-Type says: many HTTP clients send
 * `Content-Type: application/json` on every call, also a DELETE or an action that takes none
 * (`rotate_secret`). A route whose schema asks for a body still refuses it (400 naming the body).
 */
export function registerJsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    const body = bytes as Buffer;
    if (!isUtf8(body)) return done(new ApiError('invalid_json', 'The request body is not valid UTF-8.'), undefined);
    const text = body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parse(request, text, done);
  });
}
