import fastJsonStringify, { type Schema } from 'fast-json-stringify';

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
 * Fastify's own serializer (fast-json-stringify, with no shared schemas), compiled once per
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
  if (!serialize) compiledSerializers.set(key, (serialize = fastJsonStringify(schema as Schema, { schema: {} })));
  return serialize;
}
