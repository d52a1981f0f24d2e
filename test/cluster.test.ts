import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/access/operator.ts';
import type { Database } from '../src/db/database.ts';
import { enqueueMail } from '../src/outbox/enqueue.ts';
import { nextOccurrence, type Calendar } from '../src/modules/billing/recurring-invoices/rules.ts';
import { createSchedule } from '../src/modules/billing/recurring-invoices/service.ts';
import { messageId } from '../src/modules/integrations/webhooks/rules.ts';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { findHaproxy, freePort, NODE_HEADER, startNode, startProxy, stopStarted, type Proxy, type SheafNode } from '../scripts/cluster-processes.ts';
import { headerOf } from './fixtures/smtp.ts';
import { makeTimeWorkspace } from './fixtures/catalog.ts';
import { billableProject, billing, countBilled, countInvoices, insertClient, insertEntry, makeInvoiceWorkspace } from './fixtures/invoices.ts';
import { addMember, createWorkspaceWithOwner, DATABASE_URL, issueKey, openTestDatabase, sessionFor, type Caller } from './helpers.ts';

/**
 * Two `sheaf serve` processes behind HAProxy (deploy/haproxy.cfg, as `npm run cluster` runs
 * it), on this file's PostgreSQL schema, with Redis and an SMTP sink: what a second node must
 * not break, through the load balancer. One running timer per person under 50 concurrent
 * starts; an invoice import racing on both nodes bills each entry once; recurring invoices occur
 * once; the rate limit is one budget across both nodes (Redis); a session made on one node works
 * on the other; and, last (it kills a node), every queued e-mail and webhook reaches its
 * receiver once per event id when a node dies with SIGKILL mid-delivery.
 *
 * PostgreSQL and haproxy only: PGlite is one process's database. `.ci/run` installs haproxy.
 */

const HAPROXY = findHaproxy();
const skipReason = !DATABASE_URL
  ? 'DATABASE_URL is not set (two nodes need one PostgreSQL; the embedded PGlite is one process only)'
  : !HAPROXY
    ? 'haproxy is not installed (apt-get install -y haproxy)'
    : null;
if (skipReason) console.log(`test/cluster.test.ts skipped: ${skipReason}`);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const RATE_LIMIT = 60;
const FROM = 'Cluster Billing <billing@cluster.test>';
const PASSWORD = 'correct horse battery staple';

let database: Database & { schema?: string };
let nodes: SheafNode[] = [];
let proxy: Proxy | undefined;
/** What HAProxy said (servers going down and up), for the failure message of a test that expected both nodes. */
const proxyLog: string[] = [];
let smtp: Awaited<ReturnType<typeof gatedSmtp>>;
let hooks: Awaited<ReturnType<typeof gatedReceiver>>;
const redisPrefix = `sheaf:cluster-test:${randomBytes(6).toString('hex')}:`;

// ---------------------------------------------------------------- the receivers

/**
 * An SMTP sink that holds each message before its 250 while the gate is shut. A message counts
 * as accepted when the 250 went to a sender still connected: one whose sender died before the
 * answer is not accepted (a mail server discards it), and the outbox sends it again.
 */
async function gatedSmtp() {
  const accepted: Array<{ messageId: string; subject: string }> = [];
  const closed = new Set<string>();
  const held = new Set<string>();
  let holding = 0;
  let open = true;
  let waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose: (session) => void closed.add(session.id),
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('latin1');
      stream.on('data', (c: string) => (raw += c));
      stream.on('end', async () => {
        holding++;
        held.add(session.id);
        while (!open) await new Promise<void>((resolve) => waiters.push(resolve));
        holding--;
        held.delete(session.id);
        if (closed.has(session.id)) return callback(new Error('the sender is gone'));
        accepted.push({ messageId: headerOf(raw, 'Message-ID') ?? '', subject: headerOf(raw, 'Subject') ?? '' });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    accepted,
    port: (server.server.address() as AddressInfo).port,
    holding: () => holding,
    /** How many held messages' senders have gone. */
    heldGone: () => [...held].filter((id) => closed.has(id)).length,
    shut: () => void (open = false),
    release() {
      open = true;
      for (const w of waiters) w();
      waiters = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A webhook receiver that records every request on arrival (what a receiver acts on) and,
 * while the gate is shut, holds its answer. A delivery counts as acknowledged when the 200
 * went to a sender still connected; one whose sender died is delivered again with the same
 * webhook-id, which is how a receiver recognises the copy.
 */
async function gatedReceiver() {
  const arrived: Array<{ id: string; body: string }> = [];
  const acknowledged: string[] = [];
  let heldGone = 0;
  let open = true;
  let waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', async () => {
      const id = String(req.headers['webhook-id']);
      arrived.push({ id, body });
      if (!open) {
        const gone = () => heldGone++;
        req.socket.once('close', gone);
        while (!open) await new Promise<void>((resolve) => waiters.push(resolve));
        req.socket.off('close', gone);
      }
      if (req.socket.destroyed) return;
      res.end('ok', () => acknowledged.push(id));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    arrived,
    acknowledged,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** How many held requests' senders have gone. */
    heldGone: () => heldGone,
    shut: () => void (open = false),
    release() {
      open = true;
      for (const w of waiters) w();
      waiters = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- the cluster

beforeAll(async () => {
  if (skipReason) return;
  database = await openTestDatabase();
  smtp = await gatedSmtp();
  hooks = await gatedReceiver();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL,
    DATABASE_SCHEMA: database.schema,
    REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: redisPrefix,
    RATE_LIMIT_MAX: String(RATE_LIMIT),
    RATE_LIMIT_WINDOW_MS: '120000',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    SMTP_FROM: FROM,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TRUST_PROXY: 'loopback',
    OUTBOX_INTERVAL_MS: '200',
    WEBHOOK_INTERVAL_MS: '200',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    RECURRING_INTERVAL_MS: '300',
    WEB_DIST: 'off',
    LOG_LEVEL: 'warn',
  };
  nodes = await Promise.all(['node1', 'node2'].map((name) => startNode(name, { env, timeoutMs: 110_000 })));
  proxy = await startProxy({ haproxy: HAPROXY!, port, nodes: nodes.map((n) => n.address), output: (line) => proxyLog.push(line) });
  // Two process starts cost tens of seconds of CPU on a loaded machine: a longer bound than the file's.
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await stopStarted(); // a node still starting when the setup gave up
  smtp?.release();
  hooks?.release();
  await smtp?.close();
  await hooks?.close();
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
  } catch {
    // Redis is gone: nothing to clean
  } finally {
    redis.disconnect();
  }
  await database?.close();
});

interface Answer {
  status: number;
  body: any;
  node: string;
  headers: Headers;
}

/** A request through the load balancer (or `base`, a node's own address), as the caller. */
async function call(caller: Caller | null, method: string, path: string, body?: unknown, options: { base?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(`${options.base ?? proxy!.url}${path}`, {
    method,
    headers: { ...(caller?.headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, node: res.headers.get(NODE_HEADER) ?? '', headers: res.headers };
}

const nodesOf = (answers: Answer[]) => [...new Set(answers.map((a) => a.node))].sort();

/** Polls `read` until `done` holds of its value or `ms` pass; returns the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

/** Polls `read` until `done` holds of its value, or its value stopped changing for a second, or `ms` pass. */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  let since = Date.now();
  while (!done(value) && Date.now() < deadline && Date.now() - since < 1000) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await read();
    if (JSON.stringify(next) !== JSON.stringify(value)) since = Date.now();
    value = next;
  }
  return value;
}

const runningOf = (userId: string) => database.db.selectFrom('time_entries').select('id').where('user_id', '=', userId).where('is_running', '=', true).execute();

describe.skipIf(skipReason !== null)('two nodes behind HAProxy, on one PostgreSQL and one Redis', () => {
  it('the proxy spreads requests over both nodes, each on this PostgreSQL schema with Redis rate limits', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(null, 'GET', '/healthz')));
    for (const a of answers) expect(a.body).toEqual({ status: 'ok', rate_limit: 'redis' });
    expect(nodesOf(answers), proxyLog.join('\n')).toEqual(['node1', 'node2']);
  });

  it('50 concurrent timer starts per person over both nodes leave one running timer per person', async () => {
    const w = await makeTimeWorkspace(database.db, { name: 'Cluster timers' });
    const start = (caller: Caller, extra: Record<string, unknown> = {}) =>
      call(caller, 'POST', '/api/v2/time_entries', { project_id: w.project, task_id: w.task, is_running: true, ...extra });
    const fifty = (caller: Caller, extra?: Record<string, unknown>) => Array.from({ length: 50 }, () => start(caller, extra));
    const [member, contractor, other] = await Promise.all([
      Promise.all(fifty(w.member)),
      Promise.all(fifty(w.contractor)),
      Promise.all(fifty(w.other, { replace_running: true })),
    ]);
    for (const [who, answers] of [
      [w.member, member],
      [w.contractor, contractor],
    ] as const) {
      expect(nodesOf(answers), proxyLog.join('\n')).toEqual(['node1', 'node2']);
      const created = answers.filter((a) => a.status === 201);
      expect(created).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status, JSON.stringify(a.body)).toBe(409);
        expect(a.body).toMatchObject({ error: 'running_timer_conflict', running_entry: { id: created[0].body.id } });
      }
      expect(await runningOf(who.userId)).toEqual([{ id: created[0].body.id }]);
    }
    // With replace_running every start wins in turn, each stopping the one before: one runs at the end.
    expect(nodesOf(other), proxyLog.join('\n')).toEqual(['node1', 'node2']);
    for (const a of other) expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(await runningOf(w.other.userId)).toHaveLength(1);
    const stopped = await database.db.selectFrom('time_entries').select('id').where('user_id', '=', w.other.userId).where('is_running', '=', false).execute();
    expect(stopped).toHaveLength(49);
  });

  it('an invoice import of the same work, concurrently on both nodes, bills every entry exactly once', async () => {
    const ws = await makeInvoiceWorkspace(database.db);
    const clientId = await insertClient(database.db, ws.companyId, { name: 'Globex' });
    const { projectId, taskId } = await billableProject(database.db, ws.companyId, clientId, { rate: '100' });
    const entries: string[] = [];
    for (let i = 0; i < 40; i++) {
      entries.push(await insertEntry(database.db, ws.companyId, { userId: ws.member.userId, projectId, taskId, date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, seconds: 900 }));
    }
    const body = { client_id: clientId, line_items_import: { time: { summary_type: 'detailed' } } };
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(ws.owner, 'POST', '/api/v2/invoices', body)));
    expect(nodesOf(answers), proxyLog.join('\n')).toEqual(['node1', 'node2']);
    for (const a of answers) expect([201, 400], JSON.stringify(a.body)).toContain(a.status);
    const created = answers.filter((a) => a.status === 201).map((a) => a.body);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // Each entry on one line of one created invoice: 40 lines of 0.25 h at 100 in all, however the race went.
    expect(created.reduce((n, inv) => n + inv.line_items.length, 0)).toBe(40);
    expect(created.reduce((n, inv) => n + inv.amount, 0)).toBe(1000);
    const links = await billing(database.db, 'time_entries', entries);
    const ids = new Set(created.map((inv) => inv.id));
    for (const id of entries) expect(ids.has(links.get(id)!.invoice_id!)).toBe(true);
    expect(await countBilled(database.db, ws.companyId)).toEqual({ time: 40, expenses: 0 });
    expect(await countInvoices(database.db, ws.companyId)).toBe(created.length);
    // The ones that lost the race were told so in the API's error shape.
    for (const a of answers.filter((x) => x.status === 400)) expect(a.body).toMatchObject({ error: expect.any(String), error_description: expect.any(String) });
  });

  it('recurring invoices occur once although both nodes run the scheduler', async () => {
    const ws = await makeInvoiceWorkspace(database.db);
    const clientId = await insertClient(database.db, ws.companyId, { name: 'Initech' });
    const past = new Date(Date.now() - 22 * 86_400_000);
    const schedules: Awaited<ReturnType<typeof createSchedule>>[] = [];
    for (let i = 0; i < 4; i++) {
      schedules.push(
        await createSchedule(
          database.db,
          operatorPrincipal(ws.companyId),
          {
            client_id: clientId,
            frequency: 'weekly',
            anchor_day: 1 + i,
            start_date: past.toISOString().slice(0, 10),
            source: 'lines',
            line_items: [{ description: 'Support', quantity: 1, unit_price: 100 }],
          } as any,
          past,
        ),
      );
    }
    // What the calendar owes each schedule up to today (UTC): 3 or 4 weeks each.
    const today = new Date().toISOString().slice(0, 10);
    const owed = (s: (typeof schedules)[number]) => {
      let n = 0;
      for (let d = s.next_run_date; d !== null && d <= today; d = nextOccurrence(s as unknown as Calendar, d)) n++;
      return n;
    };
    const expected = schedules.reduce((n, s) => n + owed(s), 0);
    expect(expected).toBeGreaterThanOrEqual(12);
    const occurrences = () =>
      database.db
        .selectFrom('recurring_invoice_occurrences')
        .select(['schedule_id', 'occurrence_date', 'invoice_id'])
        .where('company_id', '=', ws.companyId)
        .execute();
    await until(occurrences, (rows) => rows.length >= expected, 15_000);
    await new Promise((r) => setTimeout(r, 1000)); // three more rounds of each node's scheduler
    const made = await occurrences();
    expect(made).toHaveLength(expected);
    expect(new Set(made.map((o) => `${o.schedule_id} ${o.occurrence_date}`)).size).toBe(expected);
    for (const s of schedules) expect(made.filter((o) => o.schedule_id === s.id)).toHaveLength(owed(s));
    expect(await countInvoices(database.db, ws.companyId)).toBe(expected);
    expect(new Set(made.map((o) => o.invoice_id)).size).toBe(expected);
  });

  it('the rate limit is one budget across both nodes (Redis): the limit is reached with half the requests on each', async () => {
    const { company } = await createWorkspaceWithOwner(database.db, 'Cluster limits');
    const caller = await addMember(database.db, company.id, { role: 'member' });
    const answers: Answer[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) answers.push(await call(caller, 'GET', '/api/v2/users/me'));
    for (const a of answers) expect(a.status).toBe(200);
    const byNode = (n: string) => answers.filter((a) => a.node === n).length;
    // Round robin: about half on each, so neither node alone has seen enough to refuse.
    expect(byNode('node1')).toBeGreaterThanOrEqual(RATE_LIMIT / 4);
    expect(byNode('node2')).toBeGreaterThanOrEqual(RATE_LIMIT / 4);
    expect(answers.at(-1)!.headers.get('ratelimit-remaining')).toBe('0');
    // The next requests are refused by whichever node takes them, through the proxy and at each node directly.
    const refused = [await call(caller, 'GET', '/api/v2/users/me'), await call(caller, 'GET', '/api/v2/users/me')];
    expect(nodesOf(refused), proxyLog.join('\n')).toEqual(['node1', 'node2']);
    for (const base of nodes.map((n) => n.url)) refused.push(await call(caller, 'GET', '/api/v2/users/me', undefined, { base }));
    for (const a of refused) {
      expect(a.status).toBe(429);
      expect(a.body).toMatchObject({ error: 'rate_limited' });
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another key's budget is its own.
    const fresh = await issueKey(database.db, caller.companyId, caller.userId, caller.email, 'integration');
    expect((await call(fresh, 'GET', '/api/v2/users/me')).status).toBe(200);
  });

  it('a session signed in on one node works on the other, and signing out on either ends it on both', async () => {
    const { owner } = await createWorkspaceWithOwner(database.db, 'Cluster sessions');
    await setPassword(database.db, owner.userId, PASSWORD);
    const [a, b] = nodes;
    const signIn = await call(null, 'POST', '/web/api/session', { email: owner.email, password: PASSWORD }, { base: a.url });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0];
    const session = { cookie, 'x-csrf-token': signIn.body.csrf_token as string };

    const onB = await call(null, 'GET', '/web/api/session', undefined, { base: b.url, headers: session });
    expect(onB.status).toBe(200);
    expect(onB.body).toMatchObject({ user: { id: owner.userId, email: owner.email }, csrf_token: session['x-csrf-token'] });
    // A change on node B with the session and its CSRF token, read back through the proxy from both nodes.
    const made = await call(null, 'POST', '/api/v2/clients', { name: 'Made on B' }, { base: b.url, headers: session });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const reads = await Promise.all(Array.from({ length: 4 }, () => call(null, 'GET', `/api/v2/clients/${made.body.id}`, undefined, { headers: session })));
    expect(nodesOf(reads), proxyLog.join('\n')).toEqual(['node1', 'node2']);
    for (const r of reads) expect(r.body).toMatchObject({ id: made.body.id, name: 'Made on B' });

    const out = await call(null, 'DELETE', '/web/api/session', undefined, { base: b.url, headers: session });
    expect(out.status).toBe(204);
    for (const base of [a.url, b.url]) expect((await call(null, 'GET', '/web/api/session', undefined, { base, headers: session })).status).toBe(401);
  });

  // Last: it kills node2.
  it('every queued e-mail and webhook reaches its receiver once per event id when a node is killed (SIGKILL) mid-delivery', async () => {
    const { company, owner } = await createWorkspaceWithOwner(database.db, 'Cluster delivery');
    const admin = await sessionFor(database.db, { userId: owner.userId, companyId: company.id });
    const endpoint = await call(admin, 'POST', '/web/api/webhook_endpoints', { url: hooks.url, events: ['client.created'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

    // Both receivers hold their answers: each node gets stuck inside a delivery of its batch.
    smtp.shut();
    hooks.shut();
    const mails: string[] = [];
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 30; i++) {
        mails.push(await enqueueMail(trx, company.id, 'test', { to: [{ email: `client${i}@example.test` }], subject: `Invoice ${i}`, text: 'Hello' }));
      }
    });
    // A batch is 20: the node that claims first takes 20 and waits on the sink, the other takes the other 10.
    expect((await until(async () => smtp.holding(), (n) => n >= 2, 10_000))).toBe(2);

    // Webhooks in two waves: one node claims the first and hangs on the receiver, the other claims the second.
    const clients: string[] = [];
    const wave = async () => {
      const made = await Promise.all(Array.from({ length: 10 }, (_, i) => call(owner, 'POST', '/api/v2/clients', { name: `Client ${clients.length + i} ${randomBytes(2).toString('hex')}` })));
      for (const m of made) expect(m.status, JSON.stringify(m.body)).toBe(201);
      clients.push(...made.map((m) => m.body.id as string));
    };
    await wave();
    await until(async () => hooks.arrived.length, (n) => n >= 1, 10_000);
    await wave();
    // All 20 arrive when each node took one wave; when both split the first, the second waits for the survivor.
    await settled(async () => hooks.arrived.length, (n) => n >= 20, 5_000);

    nodes[1].child.kill('SIGKILL');
    expect((await nodes[1].exited).signal).toBe('SIGKILL');
    // The receivers see the dead node's connections close before they answer anyone (else the
    // answer might go into a socket not yet known to be dead, and count as delivered).
    expect(await until(async () => smtp.heldGone(), (n) => n >= 1, 5_000)).toBe(1);
    expect(await until(async () => hooks.heldGone(), (n) => n >= 1, 5_000)).toBeGreaterThanOrEqual(1);
    smtp.release();
    hooks.release();

    // node1 finishes what it holds; what node2 held stays claimed until its lease runs out.
    const pending = async () => {
      const m = await database.db.selectFrom('outbox').select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', company.id).where('status', '=', 'pending').executeTakeFirstOrThrow();
      const h = await database.db.selectFrom('webhook_deliveries').select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', company.id).where('state', '=', 'pending').executeTakeFirstOrThrow();
      return { mails: m.n, hooks: h.n };
    };
    const before = await settled(pending, () => false, 15_000);
    // The dead node held work in both queues: this was a kill mid-delivery.
    expect(before.mails).toBeGreaterThan(0);
    expect(before.hooks).toBeGreaterThan(0);
    expect(smtp.accepted.length).toBe(30 - before.mails);

    // The leases (5 minutes for e-mail, 1 for webhooks) run out: moved back here instead of waited for.
    await database.db.updateTable('outbox').set({ available_at: new Date() }).where('company_id', '=', company.id).where('status', '=', 'pending').execute();
    await database.db.updateTable('webhook_deliveries').set({ next_attempt_at: new Date() }).where('company_id', '=', company.id).where('state', '=', 'pending').execute();
    const done = await until(pending, (p) => p.mails === 0 && p.hooks === 0, 15_000);
    expect(done).toEqual({ mails: 0, hooks: 0 });

    // E-mail: each message accepted exactly once, with its own Message-ID.
    const messageIds = smtp.accepted.map((m) => m.messageId);
    expect(messageIds.sort()).toEqual(mails.map((id) => `<${id}.${company.id}@cluster.test>`).sort());
    // Webhooks: each event acknowledged once per webhook-id; a copy the dead node had sent carries the same id and body.
    const deliveries = await database.db.selectFrom('webhook_deliveries').select(['id', 'record_id', 'state']).where('company_id', '=', company.id).execute();
    expect(deliveries.map((d) => d.record_id).sort()).toEqual([...clients].sort());
    const eventIds = deliveries.map((d) => messageId(d.id)).sort();
    expect([...hooks.acknowledged].sort()).toEqual(eventIds);
    for (const copy of hooks.arrived) {
      const first = hooks.arrived.find((a) => a.id === copy.id)!;
      expect(copy.body).toBe(first.body);
    }
    expect(new Set(hooks.arrived.map((a) => a.id)).size).toBe(20);
    expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);

    // The proxy noticed: requests keep working with one node left.
    const after = await Promise.all(Array.from({ length: 4 }, () => call(owner, 'GET', '/api/v2/users/me')));
    for (const a of after) expect(a.status).toBe(200);
    expect(nodesOf(after)).toEqual(['node1']);
  });
});
