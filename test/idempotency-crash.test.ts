import { spawn, type ChildProcess } from 'node:child_process';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { withTenant, type Tx } from '../src/db/tenant.ts';
import { ApiError } from '../src/errors.ts';
import { etagOf } from '../src/http/etag.ts';
import { requestDb } from '../src/http/idempotency.ts';
import { principalOf } from '../src/http/security.ts';
import { newId } from '../src/ids.ts';
import { listeningUrl, ROOT, SHEAF_BIN } from './cli-runner.ts';
import { billableProject, billing, countInvoices, insertClient, insertEntry } from './fixtures/invoices.ts';
import { DATABASE_URL, createTestContext, createWorkspaceWithOwner, onPostgres, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Idempotency-Key across crashes (issue 14 item 3). The work of a request with a
 * key and its stored response commit in one transaction, and the key in use is
 * an advisory lock of that transaction: whatever point a process dies at, a
 * retry with the same key either gets the committed response or does the work
 * (once). The process tests kill a real `sheaf serve` (PostgreSQL) with SIGKILL
 * at a pause point (src/test-pause.ts) and retry on this process's app.
 */

interface Hooks {
  /** What the handler does after its first unit of work. */
  then: 'ok' | 'fail' | 'refused-unit' | 'commit-fails';
  gate: Promise<void> | null;
  entered?: () => void;
}

/** An idempotent route whose work is one category per unit, on the request's database handle. */
function workPlugin(hooks: Hooks) {
  return async (app: FastifyInstance) => {
    app.post(
      '/api/v2/_test/work',
      { config: { access: 'authenticated', idempotent: true }, schema: { body: Type.Object({ name: Type.String() }, { additionalProperties: false }) } },
      async (request, reply) => {
        const p = principalOf(request);
        const db = requestDb(request);
        const { name } = request.body as { name: string };
        const category = (trx: Tx, n: string) =>
          trx.insertInto('expense_categories').values({ company_id: p.companyId, id: newId(), name: n }).execute();
        await withTenant(db, p.companyId, (trx) => category(trx, name));
        hooks.entered?.();
        if (hooks.gate) await hooks.gate;
        if (hooks.then === 'fail') throw new Error('a fault after the work');
        if (hooks.then === 'refused-unit') {
          await withTenant(db, p.companyId, async (trx) => {
            await category(trx, `${name} (second)`);
            throw new ApiError('invalid_request', 'The second unit refuses.');
          });
        }
        if (hooks.then === 'commit-fails') {
          // A constraint checked only at COMMIT: the transaction's commit itself fails.
          await withTenant(db, p.companyId, async (trx) => {
            await sql`create temp table commit_guard (id int primary key deferrable initially deferred) on commit drop`.execute(trx);
            await sql`insert into commit_guard values (1), (1)`.execute(trx);
          });
        }
        return reply.code(201).send({ name });
      },
    );
  };
}

let ctx: TestContext;
let owner: Caller;
const hooks: Hooks = { then: 'ok', gate: null };

beforeAll(async () => {
  ctx = await createTestContext({ plugins: [workPlugin(hooks)] });
  ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Crash Co'));
});
afterAll(() => ctx.close());

const categories = async (prefix: string) =>
  (
    await ctx.db
      .selectFrom('expense_categories')
      .select('name')
      .where('company_id', '=', owner.companyId)
      .where('name', 'like', `${prefix}%`)
      .orderBy('name')
      .execute()
  ).map((r) => r.name);

const work = (app: FastifyInstance, name: string, key: string) =>
  request(app, owner, { method: 'POST', url: '/api/v2/_test/work', payload: { name }, headers: { 'idempotency-key': key } });

describe('the work and the stored response commit together', () => {
  it('a 5xx after the work undoes the work and frees the key: the retry does the work once', async () => {
    const name = `undone-${newId()}`;
    hooks.then = 'fail';
    const failed = await work(ctx.app, name, name);
    hooks.then = 'ok';
    expect(failed.statusCode).toBe(500);
    expect(failed.json().error).toBe('internal_error');
    expect(await categories(name)).toEqual([]);

    const retry = await work(ctx.app, name, name);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const replay = await work(ctx.app, name, name);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await categories(name)).toEqual([name]);
  });

  it('a commit that fails answers the error, not the success, and leaves neither the work nor the key', async () => {
    const name = `uncommitted-${newId()}`;
    hooks.then = 'commit-fails';
    const failed = await work(ctx.app, name, name);
    hooks.then = 'ok';
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ error: 'internal_error', error_description: expect.any(String), message: expect.any(String) });
    expect(await categories(name)).toEqual([]);

    const retry = await work(ctx.app, name, name);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await categories(name)).toEqual([name]);
  });

  it('a unit that fails is undone alone; the 4xx answer is stored with the work before it', async () => {
    const name = `partial-${newId()}`;
    hooks.then = 'refused-unit';
    const refused = await work(ctx.app, name, name);
    hooks.then = 'ok';
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'invalid_request', message: 'The second unit refuses.' });
    expect(await categories(name)).toEqual([name]);

    const replay = await work(ctx.app, name, name);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(refused.body);
    expect(await categories(name)).toEqual([name]);
  });
});

/** Two app instances on one PostgreSQL schema, as two processes would be (each its own set of keys in flight). */
describe.runIf(onPostgres)('a key held by another process (PostgreSQL)', () => {
  let other: FastifyInstance;
  beforeAll(async () => {
    other = await buildApp({ config: ctx.config, db: ctx.db, plugins: [workPlugin(hooks)] });
  });
  afterAll(() => other.close());

  it('while its request runs → 409 idempotency_key_in_use, nothing of its work visible; afterwards the response replays', async () => {
    const name = `held-${newId()}`;
    let open!: () => void;
    hooks.gate = new Promise((resolve) => (open = resolve));
    const entered = new Promise<void>((resolve) => (hooks.entered = resolve));
    const first = work(ctx.app, name, name);
    await entered; // the first request did its work and waits, holding the key
    hooks.entered = undefined;
    const during = await work(other, name, name);
    expect(during.statusCode).toBe(409);
    expect(during.json()).toMatchObject({ error: 'idempotency_key_in_use', error_description: expect.any(String), message: expect.any(String) });
    expect(await categories(name)).toEqual([]);
    hooks.gate = null;
    open();
    expect((await first).statusCode).toBe(201);

    const after = await work(other, name, name);
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(await categories(name)).toEqual([name]);
  });
});

/** A `sheaf serve` child process on this file's schema that stops at `point` (src/test-pause.ts). */
async function pausingServer(schema: string, point: string) {
  const child: ChildProcess = spawn(process.execPath, [...SHEAF_BIN, 'serve', '--port', '0', '--json'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      NODE_ENV: 'test',
      SHEAF_TEST_PAUSE_AT: point,
      LOG_LEVEL: 'error',
      RATE_LIMIT_MAX: '100000',
    },
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let stderr = '';
  const paused = new Promise<void>((resolve) =>
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`sheaf-test-pause ${point}\n`)) resolve();
    }),
  );
  const url = await listeningUrl(child, exited);
  return {
    url,
    paused,
    async kill() {
      child.kill('SIGKILL');
      await exited;
      children.delete(child);
    },
  };
}
const children = new Set<ChildProcess>();

describe.runIf(onPostgres)('a server process killed during POST /api/v2/invoices (PostgreSQL)', () => {
  let servers: Record<'import' | 'committed', Awaited<ReturnType<typeof pausingServer>>>;
  beforeAll(async () => {
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.db)).rows[0].schema;
    // Started side by side: each costs a process start (~2.5 s of CPU).
    const [atImport, afterCommit] = await Promise.all([pausingServer(schema, 'invoice-import'), pausingServer(schema, 'idempotency-committed')]);
    servers = { import: atImport, committed: afterCommit };
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL'); // only after a failure
  });

  /** A client with one billable hour to invoice, and the import request for it. */
  async function billableWork() {
    const clientId = await insertClient(ctx.db, owner.companyId, { name: `Client ${newId()}` });
    const { projectId, taskId } = await billableProject(ctx.db, owner.companyId, clientId, { rate: '100' });
    const entryId = await insertEntry(ctx.db, owner.companyId, { userId: owner.userId, projectId, taskId, date: '2026-01-05' });
    return { entryId, body: { client_id: clientId, line_items_import: { time: { summary_type: 'project' } } } };
  }
  const createInvoice = (body: unknown, key: string) =>
    request(ctx.app, owner, { method: 'POST', url: '/api/v2/invoices', payload: body as object, headers: { 'idempotency-key': key } });
  /** Sends the request to the child and forgets it: the child never answers (it pauses, then dies). */
  const sendTo = (url: string, body: unknown, key: string) =>
    void fetch(`${url}/api/v2/invoices`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    }).catch(() => {});

  it('killed inside the import: nothing was committed, and the retry with the same key creates the invoice, once', async () => {
    const { entryId, body } = await billableWork();
    const before = await countInvoices(ctx.db, owner.companyId);
    const key = `import-${newId()}`;
    const server = servers.import;
    sendTo(server.url, body, key);
    await server.paused;

    // The child holds the key while it works: a retry now is told so, and sees none of the work.
    const during = await createInvoice(body, key);
    expect(during.statusCode).toBe(409);
    expect(during.json().error).toBe('idempotency_key_in_use');
    expect(await countInvoices(ctx.db, owner.companyId)).toBe(before);

    await server.kill();
    // PostgreSQL rolls the dead process's transaction back (and frees the key) when it
    // sees the connection close; a client retries its 409 until then.
    let retry = await createInvoice(body, key);
    for (const deadline = Date.now() + 10_000; retry.statusCode === 409 && Date.now() < deadline; ) {
      expect(retry.json().error).toBe('idempotency_key_in_use');
      await new Promise((resolve) => setTimeout(resolve, 20));
      retry = await createInvoice(body, key);
    }
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const invoice = retry.json();
    expect(invoice.amount).toBe(100);
    expect(await countInvoices(ctx.db, owner.companyId)).toBe(before + 1);
    expect((await billing(ctx.db, 'time_entries', [entryId])).get(entryId)).toMatchObject({ is_billed: true, invoice_id: invoice.id });

    const again = await createInvoice(body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(invoice.id);
    expect(await countInvoices(ctx.db, owner.companyId)).toBe(before + 1);
  });

  it('killed after the commit, before the response went out: the retry gets the committed invoice', async () => {
    const { entryId, body } = await billableWork();
    const before = await countInvoices(ctx.db, owner.companyId);
    const key = `committed-${newId()}`;
    const server = servers.committed;
    sendTo(server.url, body, key);
    await server.paused;
    await server.kill();

    const retry = await createInvoice(body, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const invoice = retry.json();
    expect(retry.headers.location).toBe(`/api/v2/invoices/${invoice.id}`);
    expect(retry.headers.etag).toBe(etagOf(invoice));
    expect(await countInvoices(ctx.db, owner.companyId)).toBe(before + 1);
    expect((await billing(ctx.db, 'time_entries', [entryId])).get(entryId)).toMatchObject({ is_billed: true, invoice_id: invoice.id });
    const stored = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/invoices/${invoice.id}` });
    expect(stored.json()).toEqual(invoice);
  });
});
