import { gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCODE_AT, encodeLargeBody } from '../src/http/body-encoding.ts';
import { plainJsonSerializer } from '../src/http/serializers.ts';
import { createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Large text bodies go to the socket as UTF-8 bytes encoded by Buffer.from, not as strings for
 * the socket to encode (issue 24, speed): the bytes, Content-Length, Content-Type, a compressed
 * answer and an idempotent replay stay exactly what they were.
 */

// Multi-byte characters (2, 3 and 4 bytes in UTF-8): a length in characters is not the length in bytes.
const TEXT = 'Grüße, 5 € – 😀 ';
const big = (n: number) => ({ note: TEXT.repeat(Math.ceil(n / TEXT.length)) });

/** A list page long enough to be serialized in slices (serializers.ts). */
const PAGE = {
  items: Array.from({ length: 250 }, (_, i) => ({ id: i, name: `${TEXT}${i}`, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)), skipped: undefined })),
  per_page: 250,
  links: { next: null },
};

/** What the route-level onSend hooks (run after the app-level ones) were handed, per request. */
const seen: Array<'buffer' | 'string'> = [];

function largeBodies(app: FastifyInstance) {
  const record = (_request: unknown, _reply: unknown, payload: unknown, done: (err: null, p: unknown) => void) => {
    seen.push(Buffer.isBuffer(payload) ? 'buffer' : 'string');
    done(null, payload);
  };
  app.get('/api/v2/_test/large', { config: { access: 'public' }, onSend: record }, async () => big(ENCODE_AT));
  app.get('/api/v2/_test/small', { config: { access: 'public' }, onSend: record }, async () => big(100));
  app.get('/api/v2/_test/page', { config: { access: 'public' }, serializerCompiler: plainJsonSerializer }, async () => PAGE);
  app.post('/api/v2/_test/large-echo', { config: { access: 'authenticated', idempotent: true } }, async (req, reply) =>
    reply.code(201).send({ echo: req.body, at: Date.now() }),
  );
}

let ctx: TestContext;
let owner: Caller;

beforeAll(async () => {
  ctx = await createTestContext({ plugins: [async (app) => largeBodies(app)] });
  ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Bodies'));
});
afterAll(() => ctx.close());

describe('encodeLargeBody', () => {
  it('encodes a string of ENCODE_AT characters or more into its UTF-8 bytes', () => {
    const text = TEXT.repeat(ENCODE_AT / 4);
    const encoded = encodeLargeBody(text);
    expect(Buffer.isBuffer(encoded)).toBe(true);
    expect((encoded as Buffer).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('leaves shorter strings, Buffers, streams and empty payloads as they are', () => {
    const short = 'x'.repeat(ENCODE_AT - 1);
    expect(encodeLargeBody(short)).toBe(short);
    const bytes = Buffer.alloc(ENCODE_AT * 2);
    expect(encodeLargeBody(bytes)).toBe(bytes);
    const stream = Readable.from(['a']);
    expect(encodeLargeBody(stream)).toBe(stream);
    expect(encodeLargeBody(null)).toBeNull();
    expect(encodeLargeBody(undefined)).toBeUndefined();
  });
});

describe('large JSON answers', () => {
  it('go as bytes, with the JSON content type and the byte length, and decode to the same JSON', async () => {
    seen.length = 0;
    const res = await request(ctx.app, null, { method: 'GET', url: '/api/v2/_test/large' });
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual(['buffer']);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeGreaterThan(res.body.length); // multi-byte characters: bytes, not characters
    expect(res.rawPayload.equals(Buffer.from(JSON.stringify(big(ENCODE_AT))))).toBe(true);
  });

  it('a list page serialized in slices is JSON.stringify\'s bytes, with their length', async () => {
    const res = await request(ctx.app, null, { method: 'GET', url: '/api/v2/_test/page' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.rawPayload.equals(Buffer.from(JSON.stringify(PAGE)))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const packed = await request(ctx.app, null, { method: 'GET', url: '/api/v2/_test/page', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(packed.rawPayload).equals(res.rawPayload)).toBe(true);
  });

  it('small answers stay strings for the socket', async () => {
    seen.length = 0;
    const res = await request(ctx.app, null, { method: 'GET', url: '/api/v2/_test/small' });
    expect(seen).toEqual(['string']);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(big(100));
  });

  it('compress to the same body', async () => {
    const res = await request(ctx.app, null, { method: 'GET', url: '/api/v2/_test/large', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).equals(Buffer.from(JSON.stringify(big(ENCODE_AT))))).toBe(true);
  });

  it('replay byte for byte under the same Idempotency-Key', async () => {
    const payload = big(ENCODE_AT);
    const headers = { 'idempotency-key': 'large-body-1' };
    const first = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/large-echo', payload, headers });
    expect(first.statusCode, first.body.slice(0, 200)).toBe(201);
    expect(first.json().echo).toEqual(payload);
    const replay = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/large-echo', payload, headers });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(Number(replay.headers['content-length'])).toBe(first.rawPayload.length);
  });
});
