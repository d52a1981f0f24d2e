import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { ErrorSchema } from './schemas.ts';

/**
 * A serializer compiler for routes whose presenter builds every property exactly
 * (large collections, prebuilt text): serializeJson (JSON.stringify, in slices for
 * long pages) instead of the schema-compiled fast-json-stringify. On pages of up to
 * 2,000 items the compiled serializer spends its time choosing branches of nullable
 * properties, and it returns a string concatenated piece by piece, which must be
 * flattened again to be counted and written. The response schema still documents
 * the body in the OpenAPI document.
 *
 * Fastify's types say a serializer returns a string; its reply hands whatever it
 * returns to the onSend hooks and sends a Buffer as it sends a string (Content-Length
 * from the bytes), hence the cast.
 */
export const plainJsonSerializer = () => serializeJson as (data: unknown) => string;

/** Items per JSON.stringify call when a page's array is serialized in slices. */
export const SLICE_ITEMS = 100;

/**
 * `JSON.stringify(data)`, as UTF-8 bytes when `data` is an object holding an array of more than
 * SLICE_ITEMS items (a list page), else as the string. The array is serialized SLICE_ITEMS at a
 * time and every piece encoded by Buffer.from: on Node.js 24, JSON.stringify of a 2,000-item page
 * took ~2.5 µs an item against ~0.7 µs for slices of 100 (its fast path ends somewhere between
 * 100 and 250 items), and the socket's own UTF-8 writer is slower than Buffer.from (body-encoding.ts);
 * on Node.js 20 the slices cost half of the whole. The bytes are exactly JSON.stringify's: the same
 * keys in the same order, skipped as it skips them (undefined, functions, symbols), and every value
 * serialized by JSON.stringify itself (issue 24; docs/decisions.md, "Hot paths: the projects list").
 */
export function serializeJson(data: unknown): string | Buffer {
  if (!isSliceable(data)) return JSON.stringify(data);
  const parts: Buffer[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value) || value.length <= SLICE_ITEMS) {
      text += JSON.stringify(value);
      continue;
    }
    parts.push(Buffer.from(`${text}[`));
    for (let i = 0; i < value.length; i += SLICE_ITEMS) {
      const slice = JSON.stringify(value.slice(i, i + SLICE_ITEMS));
      parts.push(Buffer.from(i === 0 ? slice.slice(1, -1) : `,${slice.slice(1, -1)}`));
    }
    text = ']';
  }
  parts.push(Buffer.from(`${text}}`));
  return Buffer.concat(parts);
}

/** A plain object (no toJSON of its own) with an array value longer than SLICE_ITEMS. */
function isSliceable(data: unknown): data is Record<string, unknown> {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || typeof (data as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const value of Object.values(data)) if (Array.isArray(value) && value.length > SLICE_ITEMS) return true;
  return false;
}

/**
 * Fastify's own serializer (fast-json-stringify, given the one shared schema, the error body), compiled once per
 * response schema per process rather than once per app, so an app built again in the same
 * process (each test file builds several) reuses them. A server builds one app, for which
 * nothing changes. Keyed by the schema's JSON text, not the object: Fastify hands the
 * compiler its own copy of a route's schema on every build, so a cache by object never hit
 * (measured: serializers were a third of a second build's CPU).
 */
const compiledSerializers = new Map<string, (data: unknown) => string>();

export function cachedSerializerCompiler({ schema }: { schema: object }) {
  const key = JSON.stringify(schema);
  let serialize = compiledSerializers.get(key);
  if (!serialize) compiledSerializers.set(key, (serialize = fastJsonStringify(schema as Schema, { schema: { Error: ErrorSchema as Schema } })));
  return serialize;
}
