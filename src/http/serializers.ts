import type { FastifyReply } from 'fastify';

/**
 * A serializer compiler for routes whose presenter builds every property exactly
 * (large collections, prebuilt text): plain JSON.stringify instead of the
 * schema-compiled fast-json-stringify. On pages of up to 2,000 items the compiled
 * serializer spends its time choosing branches of nullable properties, and it
 * returns a string concatenated piece by piece, which Fastify must flatten again to
 * count its bytes for Content-Length; JSON.stringify returns one flat string.
 * The response schema still documents the body in the OpenAPI document.
 */
export const plainJsonSerializer = () => (data: unknown) => JSON.stringify(data);

/**
 * A collection page's body from its items' JSON text (comma-separated, built by
 * PostgreSQL) and its envelope: the bytes JSON.stringify gives of
 * `{ [name]: items, ...envelope }`. Sent as a string with its content type, it skips
 * the serializer.
 */
export function jsonPage(name: string, items: string, envelope: object): string {
  return `{"${name}":[${items}],${JSON.stringify(envelope).slice(1)}`;
}

/**
 * One item's JSON text from PostgreSQL with the jsonb values it left to Node put in:
 * a raw \u0001 in `text` stands for `first`, a \u0002 for `second` (each at most
 * once, present only when the value is not null). JSON text never holds a raw control
 * character (strings escape them), so the marks are unambiguous. The values come
 * parsed by the driver (JSON.parse) and are written by JSON.stringify, as the
 * presenter and the serializer did: compact, keys in PostgreSQL's order (integer-like
 * keys first, as JavaScript objects order them), numbers as JavaScript prints them.
 */
export function spliceJson(text: string, first: unknown, second: unknown): string {
  let out = text;
  if (first != null) out = out.replace('\u0001', () => JSON.stringify(first));
  if (second != null) out = out.replace('\u0002', () => JSON.stringify(second));
  return out;
}

/** A body already rendered as JSON text, sent as is (a string with its content type skips the serializer). */
export const sendJsonText = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);
