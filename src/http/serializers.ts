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
 * JSON text from PostgreSQL with the jsonb values it left to Node put in: each raw
 * \u0001 in `text` is the next value of `first`, each \u0002 the next of `second`
 * (both JSON arrays as text, or null when there are none). JSON text never holds a
 * raw control character (strings escape them), so the marks are unambiguous. The
 * values are parsed and written with JSON.parse and JSON.stringify, as the driver
 * and the serializer did with jsonb columns: compact, keys in PostgreSQL's order
 * (integer-like keys first, as JavaScript objects order them), numbers as
 * JavaScript prints them. The marks are found with indexOf, not a global regular
 * expression, which took as long as decoding the page's 1.4 MB.
 */
export function spliceJson(text: string, first: string | null, second: string | null): string {
  if (first === null && second === null) return text;
  const a: unknown[] = first === null ? [] : JSON.parse(first);
  const b: unknown[] = second === null ? [] : JSON.parse(second);
  let i = 0;
  let j = 0;
  let out = '';
  let from = 0;
  let nextA = a.length ? text.indexOf('\u0001') : -1;
  let nextB = b.length ? text.indexOf('\u0002') : -1;
  while (nextA !== -1 || nextB !== -1) {
    if (nextB === -1 || (nextA !== -1 && nextA < nextB)) {
      out += text.slice(from, nextA) + JSON.stringify(a[i++]);
      from = nextA + 1;
      nextA = i < a.length ? text.indexOf('\u0001', from) : -1;
    } else {
      out += text.slice(from, nextB) + JSON.stringify(b[j++]);
      from = nextB + 1;
      nextB = j < b.length ? text.indexOf('\u0002', from) : -1;
    }
  }
  if (i !== a.length || j !== b.length) throw new Error('spliceJson: the marks and the values do not match');
  return out + text.slice(from);
}

/** A body already rendered as JSON text, sent as is (a string with its content type skips the serializer). */
export const sendJsonText = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);
