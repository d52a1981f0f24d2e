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
