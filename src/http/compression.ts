import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** JSON answers shorter than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * zlib's default level (6) took 12.5 ms of the server's CPU for a 1.4 MiB page of 2,000 time
 * entries (10.6:1); level 2 takes 5.9 ms (8.8:1), as fast as level 1 and smaller, which brought
 * the whole list request's server CPU down 13 % (issue 24; docs/decisions.md, "Hot paths: per-request
 * work measured out…"). nginx compresses at level 1 by default for the same reason: on a
 * server, CPU per response is scarcer than the last fifth of the bytes. Brotli at 4 already
 * costs about what gzip at 2 does (6.3 ms) for 12.6:1, so it stays.
 */
export const GZIP_LEVEL = 2;

/**
 * Response compression (issue 21, speed): JSON answers of the API and the web app's /web/api
 * of 1 KB or more go gzip- or brotli-encoded when the request's Accept-Encoding offers it
 * (brotli at quality 4, the plugin's default: 11 costs far more CPU for a few percent; gzip at
 * GZIP_LEVEL, whose comment says why). The week's project-task choices (~283 KB) shrink to a tenth.
 *
 * What does not change: the body itself (decoded, byte for byte what an uncompressed answer
 * holds; an idempotent replay stores and replays the uncompressed bytes, since this hook runs
 * after the idempotency hook), the headers the spec names (Cache-Control `private, no-store`,
 * Vary keeps Authorization, Service-Account-Id and Cookie and gains Accept-Encoding only on an
 * encoded answer, ETag is the hash of the uncompressed body), and requests, whose bodies stay
 * uncompressed UTF-8 JSON (no request decompression: a Content-Encoding on a request is
 * refused as before). Files (PDF, receipts, CSV and XLSX exports, the web app's assets) are
 * left alone: only application/json is encoded.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/json(;|$)/,
    zlibOptions: { level: GZIP_LEVEL },
  });
}
