import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD, GZIP_LEVEL } from '../src/http/compression.ts';
import { createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Compressed JSON (issue 21, speed): answers of COMPRESS_THRESHOLD bytes or more are gzip- or
 * brotli-encoded when Accept-Encoding offers it, smaller ones never; the decoded body and the
 * headers the spec names (Cache-Control, Vary's credential headers, ETag, an idempotent
 * replay's bytes) are those of the uncompressed answer.
 */

let ctx: TestContext;
let owner: Caller;
let session: Caller;
let project: { id: string };
const LONG_NOTES = 'Kick-off notes. '.repeat(120); // ~1.9 KB: the project's JSON is above the threshold

const decode = (encoding: string | undefined, raw: Buffer) =>
  encoding === 'gzip' ? gunzipSync(raw).toString('utf8') : encoding === 'br' ? brotliDecompressSync(raw).toString('utf8') : raw.toString('utf8');

beforeAll(async () => {
  ctx = await createTestContext();
  const w = await createWorkspaceWithOwner(ctx.db, 'Compress');
  owner = w.owner;
  session = await sessionFor(ctx.db, w.owner, ctx.clock.now());
  const client = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/clients', payload: { name: 'Acme' } });
  const made = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/projects', payload: { client_id: client.json().id, name: 'Website', notes: LONG_NOTES } });
  expect(made.statusCode, made.body).toBe(201);
  project = made.json();
});
afterAll(() => ctx.close());

describe('compressed JSON', () => {
  it.each(['gzip', 'br'])('encodes an answer above 1 KB with %s, same body, same spec headers, exact Content-Length', async (encoding) => {
    const url = `/api/v2/projects/${project.id}`;
    const plain = await request(ctx.app, owner, { method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(COMPRESS_THRESHOLD);

    const packed = await request(ctx.app, owner, { method: 'GET', url, headers: { 'accept-encoding': `${encoding}` } });
    expect(packed.statusCode).toBe(200);
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(Number(packed.headers['content-length'])).toBe(packed.rawPayload.length);
    expect(packed.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body) / 3);
    expect(decode(encoding, packed.rawPayload)).toBe(plain.body);
    // The headers the spec names: unchanged (Vary still names the credential headers; it adds the encoding).
    expect(packed.headers.etag).toBe(plain.headers.etag);
    expect(packed.headers['cache-control']).toBe('private, no-store');
    expect(plain.headers.vary).toBe('Authorization, Service-Account-Id, Cookie');
    expect(packed.headers.vary).toMatch(/^Authorization, Service-Account-Id, Cookie, accept-encoding$/i);
    expect(packed.headers['content-type']).toBe(plain.headers['content-type']);
    expect(packed.headers['x-service-features']).toBe(plain.headers['x-service-features']);
  });

  it('gzips at the level chosen for CPU (not zlib\'s default 6): the bytes are zlib\'s at that level', async () => {
    const url = `/api/v2/projects/${project.id}`;
    const plain = await request(ctx.app, owner, { method: 'GET', url });
    const packed = await request(ctx.app, owner, { method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(GZIP_LEVEL).toBe(2);
    expect(packed.rawPayload.equals(gzipSync(plain.rawPayload, { level: GZIP_LEVEL }))).toBe(true);
    expect(packed.rawPayload.equals(gzipSync(plain.rawPayload))).toBe(false);
  });

  it('prefers brotli when both are offered', async () => {
    const res = await request(ctx.app, session, { method: 'GET', url: `/api/v2/projects/${project.id}`, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('leaves answers below 1 KB, requests without Accept-Encoding and identity alone', async () => {
    const small = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.statusCode).toBe(200);
    expect(Buffer.byteLength(small.body)).toBeLessThan(COMPRESS_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBe('Authorization, Service-Account-Id, Cookie');
    const identity = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/projects/${project.id}`, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json().notes).toBe(LONG_NOTES);
    // An error body above nothing: errors are small and go as they are.
    const missing = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/projects/nope', headers: { 'accept-encoding': 'gzip' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.json()).toMatchObject({ error: 'not_found' });
  });

  it('replays an idempotent create byte for byte, whatever encoding each request asks for', async () => {
    const clientId = project && (await request(ctx.app, owner, { method: 'GET', url: `/api/v2/projects/${project.id}` })).json().client.id;
    const payload = { client_id: clientId, name: 'Replayed', notes: LONG_NOTES };
    const headers = { 'idempotency-key': 'compress-replay-0001' };
    const first = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/projects', payload, headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['content-encoding']).toBe('gzip');
    const firstBody = decode('gzip', first.rawPayload);

    const plainReplay = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/projects', payload, headers });
    expect(plainReplay.statusCode).toBe(201);
    expect(plainReplay.headers['idempotent-replayed']).toBe('true');
    expect(plainReplay.headers['content-encoding']).toBeUndefined();
    expect(plainReplay.body).toBe(firstBody);
    expect(plainReplay.headers.etag).toBe(first.headers.etag);
    expect(plainReplay.headers.location).toBe(first.headers.location);

    const brReplay = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/projects', payload, headers: { ...headers, 'accept-encoding': 'br' } });
    expect(brReplay.headers['idempotent-replayed']).toBe('true');
    expect(decode('br', brReplay.rawPayload)).toBe(firstBody);
    // Created once.
    const list = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/projects?per_page=100' });
    expect(list.json().projects.filter((p: { name: string }) => p.name === 'Replayed')).toHaveLength(1);
  });

  it('does not decode compressed request bodies: they stay uncompressed UTF-8 JSON', async () => {
    const { gzipSync } = await import('node:zlib');
    const res = await request(ctx.app, owner, {
      method: 'POST',
      url: '/api/v2/clients',
      payload: gzipSync(JSON.stringify({ name: 'Zipped' })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const list = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/clients?per_page=100' });
    expect(list.json().clients.map((c: { name: string }) => c.name)).not.toContain('Zipped');
  });
});
