import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { etagOf, checkIfMatch } from '../src/http/etag.ts';
import { updateMember } from '../src/modules/people/users/service.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

/**
 * The cross-cutting HTTP contract, exercised through a test-only route that
 * declares the same options real routes do (strict body, idempotency, ETag).
 */
const Echo = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    amount: Type.Optional(Type.Number({ minimum: 0 })),
    nested: Type.Optional(Type.Object({ note: Type.String() }, { additionalProperties: false })),
    padding: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

interface Hooks {
  calls: number;
  gate: Promise<void> | null;
  fail: number | null;
  /** Called when a request reaches the handler (before the gate). */
  entered?: () => void;
}

function echoPlugin(hooks: Hooks) {
  return async (app: FastifyInstance) => {
    app.post(
      '/api/v2/_test/echo',
      { config: { access: 'authenticated', idempotent: true }, schema: { body: Echo } },
      async (request, reply) => {
        hooks.calls++;
        hooks.entered?.();
        if (hooks.gate) await hooks.gate;
        if (hooks.fail) return reply.code(hooks.fail).send({ error: 'conflict', error_description: 'x', message: 'x' });
        const body = { n: hooks.calls, echo: request.body };
        reply.header('Location', `/api/v2/_test/echo/${hooks.calls}`).header('ETag', etagOf(body));
        return reply.code(201).send(body);
      },
    );
    app.get('/api/v2/_test/database-gone', { config: { access: 'authenticated' } }, async () => {
      // What node-postgres throws when the server terminated the connection (pg_terminate_backend, a restart).
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    });
    app.delete(
      '/api/v2/_test/guarded',
      { config: { access: 'authenticated' }, schema: { querystring: Type.Object({ required: Type.Optional(Type.Literal('1')) }, { additionalProperties: false }) } },
      async (request, reply) => {
        checkIfMatch(request, etagOf({ v: 1 }), { required: (request.query as { required?: string }).required === '1' });
        return reply.code(204).send();
      },
    );
  };
}

describe('HTTP contract', () => {
  let ctx: TestContext;
  let owner: Caller;
  const hooks: Hooks = { calls: 0, gate: null, fail: null };
  const post = (caller: Caller | null, payload: unknown, headers: Record<string, string> = {}) =>
    request(ctx.app, caller, { method: 'POST', url: '/api/v2/_test/echo', payload: payload as object, headers });

  beforeAll(async () => {
    ctx = await createTestContext({ plugins: [echoPlugin(hooks)] });
    ({ owner } = await createWorkspaceWithOwner(ctx.db));
  });
  afterAll(() => ctx.close());

  function expectShape(res: { json(): any }, code: string) {
    const body = res.json();
    expect(body.error).toBe(code);
    expect(typeof body.error_description).toBe('string');
    expect(typeof body.message).toBe('string');
    return body;
  }

  describe('bad input is a clear 4xx that changes nothing', () => {
    it('malformed JSON → 400 invalid_json', async () => {
      const before = hooks.calls;
      const res = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/echo', payload: '{"name": ', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expectShape(res, 'invalid_json');
      expect(hooks.calls).toBe(before);
    });

    it('a body that is not UTF-8 (Latin-1 "Café") → 400 invalid_json, not text with U+FFFD stored', async () => {
      const before = hooks.calls;
      for (const type of ['application/json', 'application/json; charset=iso-8859-1']) {
        const latin1 = Buffer.from('{"name":"Caf\xe9"}', 'latin1');
        const res = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/echo', payload: latin1, headers: { 'content-type': type } });
        expect(res.statusCode, type).toBe(400);
        expect(expectShape(res, 'invalid_json').message).toBe('The request body is not valid UTF-8.');
      }
      expect(hooks.calls).toBe(before);
      // UTF-8 itself, several bytes per character, goes through unchanged.
      const res = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/echo', payload: Buffer.from('{"name":"Café 東京 🙂"}'), headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(201);
      expect(res.json().echo).toEqual({ name: 'Café 東京 🙂' });
    });

    it('an empty body that declares JSON is no body (many HTTP clients send the header on every call); a route that needs a body still says so', async () => {
      const res = await request(ctx.app, owner, { method: 'DELETE', url: '/api/v2/_test/guarded', payload: '', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(204);
      const blank = await request(ctx.app, owner, { method: 'DELETE', url: '/api/v2/_test/guarded', payload: ' \r\n', headers: { 'content-type': 'application/json' } });
      expect(blank.statusCode, blank.body).toBe(204);
      const post = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/clients', payload: '', headers: { 'content-type': 'application/json' } });
      expect(post.statusCode, post.body).toBe(400);
      expect(expectShape(post, 'invalid_request').message).toMatch(/body/);
    });

    it('a malformed URL (bad percent-encoding) → 400 in the API error shape, not Fastify\'s', async () => {
      for (const url of ['/healthz%zz', '/api/v2/clients/%E0%A4%A']) {
        const res = await request(ctx.app, owner, { method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expectShape(res, 'invalid_request');
        expect(res.json().code, url).toBeUndefined();
        expect(res.headers['x-service-features'], url).toContain('timer-stop');
      }
      expect((await request(ctx.app, owner, { method: 'GET', url: '/api/v2/clients/%zz' })).headers['cache-control']).toBe('private, no-store');
    });

    it('a database that cannot be reached → 503 service_unavailable with Retry-After, in the error shape', async () => {
      const res = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/_test/database-gone' });
      expect(res.statusCode).toBe(503);
      expectShape(res, 'service_unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('wrong content types → 415', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/echo', payload: 'name=x', headers: { 'content-type': type } });
        expect(res.statusCode, type).toBe(415);
        expectShape(res, 'unsupported_media_type');
      }
    });

    it('bodies over 128 KiB → 413; exactly 128 KiB is accepted', async () => {
      const frame = JSON.stringify({ name: 'x', padding: '' });
      const exact = JSON.stringify({ name: 'x', padding: 'a'.repeat(128 * 1024 - frame.length) });
      expect(Buffer.byteLength(exact)).toBe(128 * 1024);
      expect((await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/echo', payload: exact, headers: { 'content-type': 'application/json' } })).statusCode).toBe(201);
      const before = hooks.calls;
      const over = JSON.stringify({ name: 'x', padding: 'a'.repeat(128 * 1024) });
      const res = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/_test/echo', payload: over, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(413);
      expectShape(res, 'payload_too_large');
      expect(hooks.calls).toBe(before);
    });

    it('unknown properties → 400 unknown_field naming them, also nested', async () => {
      const res = await post(owner, { name: 'x', colour: 'red' });
      expect(res.statusCode).toBe(400);
      expect(expectShape(res, 'unknown_field').field).toBe('colour');
      expect(res.json().message).toContain('colour');
      const nested = await post(owner, { name: 'x', nested: { note: 'n', extra: 1 } });
      expect(nested.statusCode).toBe(400);
      expect(nested.json().field).toBe('nested.extra');
    });

    it('wrong types are not coerced; missing required fields are named', async () => {
      const res = await post(owner, { name: 'x', amount: '5' });
      expect(res.statusCode).toBe(400);
      expect(expectShape(res, 'invalid_request').field).toBe('amount');
      const missing = await post(owner, { amount: 5 });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().field).toBe('name');
      expect((await post(owner, [1, 2])).statusCode).toBe(400);
      expect((await post(owner, { name: 'x', amount: -1 })).statusCode).toBe(400);
    });

    it('unknown paths → 404; a method a known path does not serve → 405 with Allow; both in the error shape', async () => {
      for (const [method, url] of [['GET', '/api/v2/nope'], ['DELETE', '/api/v2/nope/1'], ['GET', '/nope']] as const) {
        const res = await request(ctx.app, owner, { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expectShape(res, 'not_found');
        expect(res.headers.allow).toBeUndefined();
      }
      for (const [method, url, allow] of [
        ['PUT', '/api/v2/users/me', 'GET, HEAD'],
        ['DELETE', '/api/v2/users', 'GET, HEAD'],
        ['PUT', '/api/v2/clients/abc?x=1', 'GET, HEAD, PATCH, DELETE'],
        ['GET', '/api/v2/approvals/submit', 'POST'],
        ['PROPFIND', '/api/v2/clients/', 'GET, HEAD, POST'],
        ['TRACE', '/healthz', 'GET, HEAD'],
      ] as const) {
        const res = await request(ctx.app, owner, { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expectShape(res, 'method_not_allowed');
        expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      }
    });
  });

  describe('headers on every response', () => {
    it('X-Service-Features everywhere; private, no-store and Vary on credential-dependent responses', async () => {
      const cases = [
        await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' }),
        await request(ctx.app, null, { method: 'GET', url: '/api/v2/users/me' }),
        await post(owner, { name: 'x', bogus: 1 }),
        await request(ctx.app, owner, { method: 'GET', url: '/api/v2/nope' }),
      ];
      for (const res of cases) {
        expect(res.headers['x-service-features']).toBeDefined();
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers.vary).toBe('Authorization, Service-Account-Id, Cookie');
      }
      const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', rate_limit: 'memory' });
      expect(health.headers['x-service-features']).toBeDefined();
    });

    it('lists only feature tokens of registered areas', async () => {
      const tokens = String((await ctx.app.inject({ method: 'GET', url: '/healthz' })).headers['x-service-features'])
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      // Each token the spec names, with a route of the area it announces.
      const areaRoute: Record<string, { method: 'GET' | 'PATCH' | 'POST'; url: string }> = {
        'time-approvals-v1': { method: 'POST', url: '/api/v2/approvals/approve' },
        'project-task-budgets': { method: 'PATCH', url: '/api/v2/projects/:project_id/task_assignments/:task_id' },
        'timer-stop': { method: 'PATCH', url: '/api/v2/time_entries/:id/stop' },
        'timer-restart': { method: 'PATCH', url: '/api/v2/time_entries/:id/restart' },
        'invoice-line-item-edit': { method: 'PATCH', url: '/api/v2/invoices/:id' },
        'invoice-pdf': { method: 'GET', url: '/api/v2/invoices/:id/pdf' },
        'financial-reports-v1': { method: 'GET', url: '/api/v2/reports/uninvoiced' },
        // Sheaf's own (issue 25): EN 16931 e-invoices.
        'e-invoice-en16931': { method: 'GET', url: '/api/v2/invoices/:id/xml' },
        // Issue 26: the change feed.
        'changes-feed-v1': { method: 'GET', url: '/api/v2/changes' },
      };
      // This app registers every area, so it announces every token, and each only once.
      expect([...tokens].sort()).toEqual(Object.keys(areaRoute).sort());
      for (const token of tokens) expect(ctx.app.hasRoute(areaRoute[token]), token).toBe(true);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response byte for byte and runs the handler once', async () => {
      const key = `replay-${Date.now()}`;
      const first = await post(owner, { name: 'a' }, { 'idempotency-key': key });
      const calls = hooks.calls;
      const again = await post(owner, { name: 'a' }, { 'idempotency-key': key });
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(hooks.calls).toBe(calls);
    });

    it('the same fields in another order are the same input: replayed, not 409; a nested difference is another body', async () => {
      const key = `reordered-${Date.now()}`;
      const first = await post(owner, { name: 'a', amount: 5, nested: { note: 'x' } }, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(201);
      const calls = hooks.calls;
      const again = await post(owner, { nested: { note: 'x' }, amount: 5, name: 'a' }, { 'idempotency-key': key });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(hooks.calls).toBe(calls);
      expectShape(await post(owner, { name: 'a', amount: 5, nested: { note: 'y' } }, { 'idempotency-key': key }), 'idempotency_key_reused');
    });

    it('the same key with another body → 409; another credential runs anew', async () => {
      const key = `other-body-${Date.now()}`;
      await post(owner, { name: 'a' }, { 'idempotency-key': key });
      const res = await post(owner, { name: 'b' }, { 'idempotency-key': key });
      expect(res.statusCode).toBe(409);
      expectShape(res, 'idempotency_key_reused');
      const colleague = await addMember(ctx.db, owner.companyId);
      const calls = hooks.calls;
      expect((await post(colleague, { name: 'a' }, { 'idempotency-key': key })).statusCode).toBe(201);
      expect(hooks.calls).toBe(calls + 1);
    });

    it('while the first request runs → 409; concurrent duplicates run the handler once', async () => {
      const key = `in-flight-${Date.now()}`;
      let open!: () => void;
      hooks.gate = new Promise((resolve) => (open = resolve));
      const calls = hooks.calls;
      const entered = new Promise<void>((resolve) => (hooks.entered = resolve));
      const first = post(owner, { name: 'slow' }, { 'idempotency-key': key });
      await entered; // the first request holds the key and waits at the gate
      hooks.entered = undefined;
      const during = await post(owner, { name: 'slow' }, { 'idempotency-key': key });
      expect(during.statusCode).toBe(409);
      expectShape(during, 'idempotency_key_in_use');
      hooks.gate = null;
      open();
      expect((await first).statusCode).toBe(201);
      expect(hooks.calls).toBe(calls + 1);
      const results = await Promise.all([1, 2, 3].map(() => post(owner, { name: 'race' }, { 'idempotency-key': `${key}-race` })));
      expect(results.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(1);
      for (const r of results) expect([201, 409]).toContain(r.statusCode);
      expect(hooks.calls).toBe(calls + 2);
    });

    it('after a permission change → 409', async () => {
      const caller = await addMember(ctx.db, owner.companyId, { role: 'member' });
      const key = `perm-${Date.now()}`;
      await post(caller, { name: 'a' }, { 'idempotency-key': key });
      await updateMember(ctx.db, operatorPrincipal(owner.companyId), caller.userId, { role: 'administrator' });
      const res = await post(caller, { name: 'a' }, { 'idempotency-key': key });
      expect(res.statusCode).toBe(409);
      expectShape(res, 'idempotency_permission_changed');
    });

    it('a 409 or 5xx answer releases the key for a corrected retry', async () => {
      for (const status of [409, 503]) {
        const key = `release-${status}-${Date.now()}`;
        hooks.fail = status;
        expect((await post(owner, { name: 'a' }, { 'idempotency-key': key })).statusCode).toBe(status);
        hooks.fail = null;
        expect((await post(owner, { name: 'a' }, { 'idempotency-key': key })).statusCode).toBe(201);
      }
    });

    it('expires after 24 hours', async () => {
      const key = `expiry-${Date.now()}`;
      await post(owner, { name: 'a' }, { 'idempotency-key': key });
      const calls = hooks.calls;
      ctx.clock.advance(24 * 3600 * 1000 + 1000);
      const res = await post(owner, { name: 'a' }, { 'idempotency-key': key });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(hooks.calls).toBe(calls + 1);
    });

    it('rejects malformed keys', async () => {
      for (const key of ['short7c', 'x'.repeat(256), 'has space', 'semi;colon']) {
        const res = await post(owner, { name: 'a' }, { 'idempotency-key': key });
        expect(res.statusCode, key).toBe(400);
        expect(res.json().field).toBe('Idempotency-Key');
      }
    });
  });

  describe('If-Match', () => {
    const del = (headers: Record<string, string>, required = false) =>
      request(ctx.app, owner, { method: 'DELETE', url: `/api/v2/_test/guarded${required ? '?required=1' : ''}`, headers });

    it('412 when stale, 428 when missing where required, * and the current tag match, weak tags never', async () => {
      const current = etagOf({ v: 1 });
      expect((await del({ 'if-match': current })).statusCode).toBe(204);
      expect((await del({ 'if-match': '*' }, true)).statusCode).toBe(204);
      expect((await del({ 'if-match': `"stale", ${current}` })).statusCode).toBe(204);
      expect((await del({})).statusCode).toBe(204);
      const stale = await del({ 'if-match': '"stale"' });
      expect(stale.statusCode).toBe(412);
      expectShape(stale, 'precondition_failed');
      expect((await del({ 'if-match': `W/${current}` })).statusCode).toBe(412);
      const missing = await del({}, true);
      expect(missing.statusCode).toBe(428);
      expectShape(missing, 'precondition_required');
    });
  });

  describe('OpenAPI', () => {
    it('is a valid OpenAPI 3.1 document that lists every visible route', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      const validator = new Validator();
      const result = await validator.validate(doc);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['account', 'bearer']);
      const documented = new Set<string>();
      for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
      }
      const toOpenApi = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');
      for (const route of ctx.app.routeCatalog) {
        // The document itself and the health probes are not API v2 operations; the web app's own routes are in its document;
        // /mcp is JSON-RPC, described by the MCP specification (its tools list themselves), not a REST operation.
        if (route.url.includes('/_test/') || ['/api/v2/openapi.json', '/healthz', '/livez', '/mcp'].includes(route.url) || route.web) continue;
        expect(documented, `${route.method} ${route.url}`).toContain(`${route.method} ${toOpenApi(route.url)}`);
      }
      const users = doc.paths['/api/v2/users'].get;
      expect(users.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['is_active', 'page', 'per_page']));
    });
  });

  it('refuses to start a route that declares no access', async () => {
    await expect(
      buildApp({
        config: ctx.config,
        db: ctx.db,
        plugins: [async (app) => void app.get('/api/v2/_test/undeclared', async () => ({}))],
      }),
    ).rejects.toThrow(/declares no access/);
  });
});

describe('rate limit', () => {
  let ctx: TestContext;
  let owner: Caller;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    ({ owner } = await createWorkspaceWithOwner(ctx.db));
  });
  afterAll(() => ctx.close());

  it('429 with Retry-After after the limit, per credential, never on public routes', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe('3');
    }
    const limited = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number.isInteger(Number(limited.headers['retry-after']))).toBe(true);
    const colleague = await addMember(ctx.db, owner.companyId);
    expect((await request(ctx.app, colleague, { method: 'GET', url: '/api/v2/users/me' })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('rate limit shared through Redis', () => {
  const contexts: TestContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('two API instances share one counter per credential', async () => {
    const env = { RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_MS: '60000', REDIS_URL: 'redis://127.0.0.1:6379' };
    const a = await createTestContext({ env });
    contexts.push(a);
    const { owner } = await createWorkspaceWithOwner(a.db);
    // A second app on the same database and the same Redis.
    const b = await buildApp({ config: a.config, db: a.db });
    contexts.push({ ...a, close: () => b.close() });
    const statuses = [];
    for (const app of [a.app, b, a.app, b, a.app]) statuses.push((await request(app, owner, { method: 'GET', url: '/api/v2/users/me' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('a Redis outage lets requests through (and logs it) instead of failing them', async () => {
    const lines: string[] = [];
    const env = { RATE_LIMIT_MAX: '4', REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'warn' };
    const a = await createTestContext({ env });
    contexts.push(a);
    const { owner } = await createWorkspaceWithOwner(a.db);
    const app = await buildApp({ config: a.config, db: a.db, logStream: { write: (line) => void lines.push(line) } });
    contexts.push({ ...a, close: () => app.close() });
    const res = await request(app, owner, { method: 'GET', url: '/api/v2/users/me' });
    expect(res.statusCode).toBe(200);
    expect(lines.join('')).toContain('rate limit store unavailable');
  });
});

describe('request logging', () => {
  it('logs one line per request without the credential secret', async () => {
    const lines: string[] = [];
    const ctx = await createTestContext({ env: { LOG_LEVEL: 'info' } });
    try {
      const { owner } = await createWorkspaceWithOwner(ctx.db);
      const app = await buildApp({ config: ctx.config, db: ctx.db, logStream: { write: (line) => void lines.push(line) } });
      await request(app, owner, { method: 'GET', url: '/api/v2/users/me' });
      await request(app, owner, { method: 'GET', url: '/api/v2/users?bogus=1' });
      // The probes are not logged at info (a load balancer's every second would be most of the log).
      expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await app.close();
      const log = lines.join('');
      expect(log).toContain('/api/v2/users/me');
      expect(log).toContain('sheaf_fa_');
      expect(log).not.toContain(owner.key);
      expect(log).not.toContain(owner.key.slice(12));
      const entries = lines.map((l) => JSON.parse(l));
      expect(entries.filter((e) => e.msg === 'request completed')).toHaveLength(2);
      expect(log).not.toMatch(/\/livez|\/healthz/);
    } finally {
      await ctx.close();
    }
  });
});
