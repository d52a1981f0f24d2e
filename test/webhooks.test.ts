import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { deliverDueWebhooks, fanOutEvents, type WebhookWorkerDeps } from '../src/modules/integrations/webhooks/index.ts';
import { claimDue } from '../src/modules/integrations/webhooks/queries.ts';
import { createEndpoint } from '../src/modules/integrations/webhooks/service.ts';
import { pruneChanges } from '../src/modules/integrations/changes/index.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { todayIn } from '../src/time/workspace-time.ts';
import { listeningUrl, ROOT, SHEAF_BIN, runCli } from './cli-runner.ts';
import { makeApprovalWorkspace, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';
import { fannedOut } from './fixtures/webhooks.ts';
import { insertClient, insertProject, postEntry } from './fixtures/catalog.ts';
import { DATABASE_URL, addMember, createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Webhooks (issue 26 item 4): endpoints through the web routes (round trip, the secret
 * shown once, bad input with nothing written, roles, tenancy); the events the trigger
 * enqueues, exactly; signed deliveries checked with the Standard Webhooks package's own
 * verifier; retries against a receiver that fails and recovers; per-record order;
 * disabling with an e-mail; refusals of private targets, also at delivery (a name that
 * resolves to 127.0.0.1); resend; rotation; the backup without secrets; the CLI; and
 * (PostgreSQL) a server killed mid-write loses no event.
 */

let ctx: TestContext;
let w: ApprovalWorkspace;
let foreign: ApprovalWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'member', Caller> = {} as never;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** The status the receiver answers the next requests with (then 200). */
let answers: number[] = [];
/** A status for a request by what it carries, before `answers` (for requests sent at once, whose order of arrival is not theirs). */
let answerFor: ((body: string) => number | undefined) | null = null;

beforeAll(async () => {
  ctx = await createTestContext({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  w = await makeApprovalWorkspace(ctx.db);
  foreign = await makeApprovalWorkspace(ctx.db, { name: 'Elsewhere' });
  for (const who of ['owner', 'admin', 'manager', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answerFor?.(body) ?? answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await ctx.close();
});

const web = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), ...(field ? { field } : {}) });
}

const worker = (extra: Partial<WebhookWorkerDeps> = {}): WebhookWorkerDeps => ({ db: ctx.db, clock: ctx.clock.now, allowPrivate: true, baseUrl: 'https://sheaf.example', ...extra });

/** Runs the worker until nothing more is due now. */
async function drain(extra: Partial<WebhookWorkerDeps> = {}) {
  await fannedOut(ctx.db);
  for (let i = 0; i < 50; i++) {
    const r = await deliverDueWebhooks(worker(extra));
    if (r.delivered + r.retried + r.failed === 0) return;
  }
}

async function addEndpoint(caller: Caller, body: Record<string, unknown>) {
  const res = await web(caller, 'POST', '/web/api/webhook_endpoints', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; events: string[] };
}

async function deliveries(endpointId: string) {
  await fannedOut(ctx.db);
  return ctx.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_type', 'record_id', 'state', 'attempts', 'last_status', 'last_error'])
    .where('endpoint_id', '=', endpointId)
    .orderBy('seq')
    .execute();
}

/** The audit log's entries about an endpoint, oldest first, as the audit page shows them. */
async function auditOf(endpointId: string) {
  const res = await web(s.owner, 'GET', '/web/api/audit_logs?per_page=200');
  expect(res.statusCode, res.body).toBe(200);
  type Entry = { action: string; actor: { type: string; user_id: string | null }; subject: { id: string | null; label: string | null }; details: Record<string, unknown> };
  return (res.json().audit_logs as Entry[]).filter((e) => e.subject.id === endpointId).reverse();
}

async function endpointCount(companyId = w.companyId) {
  const r = await ctx.db.selectFrom('webhook_endpoints').select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow();
  return r.n;
}

/** Endpoints of earlier tests stop receiving, so each test sees only its own events. */
afterEach(async () => {
  await ctx.db.updateTable('webhook_endpoints').set({ is_active: false }).execute();
  received.length = 0;
  answers = [];
  answerFor = null;
});

describe('endpoints in the web app', () => {
  it('registers an endpoint, shows its secret once and never again', async () => {
    const made = await addEndpoint(s.admin, { url: 'https://hooks.example.com/sheaf', events: ['client.created', 'time_entry.created', 'client.created'], description: 'CRM' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made).toMatchObject({ url: 'https://hooks.example.com/sheaf', events: ['time_entry.created', 'client.created'], is_active: true, description: 'CRM', created_by: { id: w.admin.userId } });
    const list = await web(s.owner, 'GET', '/web/api/webhook_endpoints');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(made.secret);
    expect(list.json().webhook_endpoints.map((e: { id: string }) => e.id)).toContain(made.id);
    const one = await web(s.admin, 'GET', `/web/api/webhook_endpoints/${made.id}`);
    expect(one.json()).not.toHaveProperty('secret');
    const patched = await web(s.admin, 'PATCH', `/web/api/webhook_endpoints/${made.id}`, { events: ['invoice.paid'], description: null, is_active: false });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['invoice.paid'], description: null, is_active: false, disabled_reason: null, disabled_at: expect.any(String) });
    // Turned off and on by hand: the log says which, names the URL, and records no change of state that did not happen.
    for (const is_active of [true, false, false]) expect((await web(s.admin, 'PATCH', `/web/api/webhook_endpoints/${made.id}`, { is_active })).statusCode).toBe(200);
    expect((await web(s.admin, 'POST', `/web/api/webhook_endpoints/${made.id}/rotate_secret`)).statusCode).toBe(200);
    expect((await auditOf(made.id)).map((e) => [e.action, e.subject.label, e.details.is_active])).toEqual([
      ['webhook_endpoint.created', 'https://hooks.example.com/sheaf', undefined],
      ['webhook_endpoint.updated', 'https://hooks.example.com/sheaf', false],
      ['webhook_endpoint.updated', 'https://hooks.example.com/sheaf', true],
      ['webhook_endpoint.updated', 'https://hooks.example.com/sheaf', false],
      ['webhook_endpoint.updated', 'https://hooks.example.com/sheaf', undefined],
      ['webhook_endpoint.secret_rotated', 'https://hooks.example.com/sheaf', undefined],
    ]);
    expect((await web(s.admin, 'DELETE', `/web/api/webhook_endpoints/${made.id}`)).statusCode).toBe(204);
    expect((await web(s.admin, 'GET', `/web/api/webhook_endpoints/${made.id}`)).statusCode).toBe(404);
    // Deleted, its entries keep the URL their records hold.
    expect(new Set((await auditOf(made.id)).map((e) => e.subject.label))).toEqual(new Set(['https://hooks.example.com/sheaf']));
  });

  it('keeps no copy of the secret to show again: a create is not replayed by Idempotency-Key', async () => {
    const create = () =>
      request(ctx.app, s.owner, { method: 'POST', url: '/web/api/webhook_endpoints', payload: { url: 'https://example.com/idem', events: ['client.created'] }, headers: { 'idempotency-key': 'webhook-create-once' } });
    const first = await create();
    expect(first.statusCode, first.body).toBe(201);
    const second = await create();
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().secret).not.toBe(first.json().secret);
    const stored = await ctx.db.selectFrom('idempotency_keys').select(sql<string>`response_body::text`.as('body')).execute();
    expect(stored.some((r) => String(r.body).includes(first.json().secret))).toBe(false);
    for (const id of [first.json().id, second.json().id]) expect((await web(s.owner, 'DELETE', `/web/api/webhook_endpoints/${id}`)).statusCode).toBe(204);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const before = await endpointCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'ftp://example.com/x', events: ['client.created'] }, 'url'],
      [{ url: 'not a url', events: ['client.created'] }, 'url'],
      [{ url: 'https://u:p@example.com/', events: ['client.created'] }, 'url'],
      [{ url: 'https://example.com/', events: ['client.exploded'] }, 'events'],
      [{ url: 'https://example.com/', events: [] }, 'events'],
      [{ url: 'https://example.com/', events: 'client.created' }, 'events'],
      [{ url: 'https://example.com/', events: ['client.created'], is_active: 'yes' }, 'is_active'],
      [{ url: 'https://example.com/', events: ['client.created'], colour: 'red' }, 'colour'],
      [{ url: 'https://example.com/', events: ['client.created'], secret: 'whsec_mine' }, 'secret'],
      [{ events: ['client.created'] }, 'url'],
      [{ url: `https://example.com/${'x'.repeat(2000)}`, events: ['client.created'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await web(s.admin, 'POST', '/web/api/webhook_endpoints', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field ?? res.json().error_description, JSON.stringify(body)).toContain(field);
    }
    expect(await endpointCount()).toBe(before);
  });

  it('says why a URL is refused in a code the web app words in the reader’s language', async () => {
    const cases: Array<[string, string]> = [
      ['ftp://example.com/x', 'scheme'],
      ['not a url', 'not_absolute'],
      ['https://u:p@example.com/', 'credentials'],
    ];
    for (const [url, refusal] of cases) {
      const res = await web(s.admin, 'POST', '/web/api/webhook_endpoints', { url, events: ['client.created'] });
      expect(res.json(), url).toMatchObject({ error: 'invalid_request', field: 'url', refusal });
    }
  });

  it('lets only owners and administrators manage webhooks', async () => {
    for (const who of ['manager', 'member'] as const) {
      expectError(await web(s[who], 'GET', '/web/api/webhook_endpoints'), 403, 'forbidden');
      expectError(await web(s[who], 'POST', '/web/api/webhook_endpoints', { url: 'https://example.com/', events: ['client.created'] }), 403, 'forbidden');
    }
  });

  it("gives 404 for another workspace's endpoints and deliveries", async () => {
    const theirs = await addEndpoint(await sessionFor(ctx.db, foreign.owner, ctx.clock.now()), { url: 'https://example.com/', events: ['client.created'] });
    await insertClient(ctx.db, foreign.companyId, 'Foreign client');
    const [delivery] = await deliveries(theirs.id);
    expect(delivery).toBeDefined();
    const before = await endpointCount(foreign.companyId);
    for (const [method, url, body] of [
      ['GET', `/web/api/webhook_endpoints/${theirs.id}`],
      ['PATCH', `/web/api/webhook_endpoints/${theirs.id}`, { is_active: false }],
      ['DELETE', `/web/api/webhook_endpoints/${theirs.id}`],
      ['POST', `/web/api/webhook_endpoints/${theirs.id}/rotate_secret`],
      ['GET', `/web/api/webhook_endpoints/${theirs.id}/deliveries`],
      ['POST', `/web/api/webhook_endpoints/${theirs.id}/deliveries/${delivery!.id}/resend`],
    ] as const) {
      expectError(await web(s.owner, method, url, body), 404, 'not_found');
    }
    expect(await endpointCount(foreign.companyId)).toBe(before);
    expect((await ctx.db.selectFrom('webhook_endpoints').select('is_active').where('id', '=', theirs.id).executeTakeFirstOrThrow()).is_active).toBe(true);
  });
});

describe('private targets', () => {
  it('refuses private, loopback and link-local URLs when saved, unless the operator allows them', async () => {
    const strict = { allowPrivate: false, resolve: async (host: string) => [{ address: host === 'rebind.test' ? '127.0.0.1' : '93.184.216.34', family: 4 }] };
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://10.1.2.3/', 'http://rebind.test/x']) {
      await expect(createEndpoint(ctx.db, operatorPrincipal(w.companyId), { url, events: ['client.created'] }, strict, ctx.clock.now()), url).rejects.toMatchObject({
        code: 'invalid_request',
        extras: { field: 'url', refusal: 'private_address' },
      });
    }
    // The real resolver: localhost is a name for 127.0.0.1, with the root's closing dot too.
    for (const url of ['http://localhost:9/x', 'http://localhost.:9/x']) {
      await expect(createEndpoint(ctx.db, operatorPrincipal(w.companyId), { url, events: ['client.created'] }, { allowPrivate: false }, ctx.clock.now()), url).rejects.toMatchObject({
        extras: { field: 'url', refusal: 'private_address' },
      });
    }
    const allowed = await createEndpoint(ctx.db, operatorPrincipal(w.companyId), { url: 'http://127.0.0.1:9/x', events: ['client.created'] }, { allowPrivate: true }, ctx.clock.now());
    expect(allowed.url).toBe('http://127.0.0.1:9/x');
  });

  it('checks the address again at delivery: a name that now resolves to 127.0.0.1 gets nothing', async () => {
    const made = await addEndpoint(s.owner, { url: receiverUrl.replace('127.0.0.1', 'rebind.test'), events: ['client.created'] });
    await insertClient(ctx.db, w.companyId, 'Rebound');
    await drain({ allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(received).toHaveLength(0);
    const [d] = await deliveries(made.id);
    expect(d).toMatchObject({ state: 'pending', attempts: 1, last_status: null });
    expect(d!.last_error).toMatch(/127\.0\.0\.1.*private/);
    // A literal private address, allowed when it was saved, is refused at delivery when no longer allowed.
    await ctx.db.updateTable('webhook_endpoints').set({ url: receiverUrl }).where('id', '=', made.id).execute();
    ctx.clock.advance(5_000);
    await drain({ allowPrivate: false });
    expect(received).toHaveLength(0);
    expect((await deliveries(made.id))[0]).toMatchObject({ attempts: 2, last_error: expect.stringMatching(/private/) });
  });
});

describe('events', () => {
  it('enqueues exactly the events of each change, in order, and none for a change that rolled back', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['time_entry.created', 'time_entry.updated', 'time_entry.deleted', 'timer.started', 'timer.stopped', 'client.created', 'client.updated', 'client.archived', 'client.deleted', 'project.created', 'project.archived'] });
    const clientId = await insertClient(ctx.db, w.companyId, 'Evented');
    const projectId = await insertProject(ctx.db, w.companyId, clientId, { name: 'Evented project' });
    await ctx.db.updateTable('projects').set({ is_active: false }).where('id', '=', projectId).execute();
    await ctx.db.updateTable('clients').set({ name: 'Evented 2' }).where('id', '=', clientId).execute();
    // A touch that changes nothing an endpoint sees is no event.
    await ctx.db.updateTable('clients').set({ updated_at: new Date() }).where('id', '=', clientId).execute();
    const timer = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: todayIn(w.timezone, ctx.clock.now()), is_running: true });
    expect(timer.statusCode, timer.body).toBe(201);
    const entryId = timer.json().id;
    expect((await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${entryId}/stop` })).statusCode).toBe(200);
    expect((await request(ctx.app, w.member, { method: 'DELETE', url: `/api/v2/time_entries/${entryId}` })).statusCode).toBe(204);
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into clients (company_id, id, name) values (${w.companyId}, gen_random_uuid(), 'Rolled back')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => {});
    const events = (await deliveries(hook.id)).map((d) => d.event_type);
    expect(events).toEqual([
      'client.created',
      'project.created',
      'project.archived',
      'client.updated',
      'time_entry.created',
      'timer.started',
      'time_entry.updated',
      'timer.stopped',
      'time_entry.deleted',
    ]);
  });

  it('gives an event to each endpoint that was on when the change was made, even if it is turned off or on before the event goes out', async () => {
    const early = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    const a = await insertClient(ctx.db, w.companyId, 'Made while early was on');
    // Turned off before the worker fans the event out: the event is still early's, held until it is on again.
    expect((await web(s.owner, 'PATCH', `/web/api/webhook_endpoints/${early.id}`, { is_active: false })).statusCode).toBe(200);
    // Made after the first change: that event is not late's.
    const late = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    const b = await insertClient(ctx.db, w.companyId, 'Made while early was off');
    // On again after the second change: that one is not early's.
    expect((await web(s.owner, 'PATCH', `/web/api/webhook_endpoints/${early.id}`, { is_active: true })).statusCode).toBe(200);
    expect((await deliveries(early.id)).map((d) => d.record_id)).toEqual([a]);
    expect((await deliveries(late.id)).map((d) => d.record_id)).toEqual([b]);
  });

  it('sends a new invoice one invoice.created, with its number, though it is written in steps (pending number, periods, number)', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['invoice.created', 'invoice.updated'] });
    const explicit = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/invoices', payload: { client_id: w.clientId, line_items: [{ description: 'Workshop', quantity: 1, unit_price: 500 }] } });
    expect(explicit.statusCode, explicit.body).toBe(201);
    const entry = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2025-11-10', hours: 2 });
    expect(entry.statusCode, entry.body).toBe(201);
    // The workspace invoices approved time only.
    await ctx.db.updateTable('time_entries').set({ approval_status: 'approved' }).where('id', '=', entry.json().id).execute();
    const imported = await request(ctx.app, w.owner, {
      method: 'POST',
      url: '/api/v2/invoices',
      payload: { client_id: w.clientId, line_items_import: { project_ids: [w.project], time: { summary_type: 'project', from: '2025-11-01', to: '2025-11-30' } } },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const rows = await deliveries(hook.id);
    expect(rows.map((d) => [d.event_type, d.record_id])).toEqual([
      ['invoice.created', explicit.json().id],
      ['invoice.created', imported.json().id],
    ]);
    const data = await ctx.db.selectFrom('webhook_deliveries').select(['data']).where('endpoint_id', '=', hook.id).orderBy('seq').execute();
    expect(data.map((d) => (d.data as { number: string }).number)).toEqual([explicit.json().number, imported.json().number]);
    expect((data[1]!.data as { period_start: string | null }).period_start).toBe(imported.json().period_start);
    // A later change of the invoice, in a transaction of its own, is its own event.
    expect((await request(ctx.app, w.owner, { method: 'PATCH', url: `/api/v2/invoices/${explicit.json().id}`, payload: { subject: 'Workshop, March' } })).statusCode).toBe(200);
    expect((await deliveries(hook.id)).map((d) => d.event_type)).toEqual(['invoice.created', 'invoice.created', 'invoice.updated']);
    // A change of its lines or payments alone moves its amounts: an update too, though the
    // invoice's own row changes only its updated_at.
    const id = explicit.json().id;
    const line = explicit.json().line_items[0].id;
    const repriced = await request(ctx.app, w.owner, { method: 'PATCH', url: `/api/v2/invoices/${id}`, payload: { line_items: [{ id: line, unit_price: 650 }] } });
    expect(repriced.statusCode, repriced.body).toBe(200);
    expect((await request(ctx.app, w.owner, { method: 'POST', url: `/api/v2/invoices/${id}/messages`, payload: { recipients: [{ email: 'ap@example.com' }] } })).statusCode).toBe(201);
    const paid = await web(s.owner, 'POST', `/web/api/invoices/${id}/payments`, { amount: 100, paid_date: '2025-12-01' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await deliveries(hook.id)).map((d) => d.event_type)).toEqual(['invoice.created', 'invoice.created', 'invoice.updated', 'invoice.updated', 'invoice.updated', 'invoice.updated']);
    // A touch of another record is still no event.
    await ctx.db.updateTable('clients').set({ updated_at: new Date() }).where('id', '=', w.clientId).execute();
    expect(await deliveries(hook.id)).toHaveLength(6);
  });

  it("keeps a change whose events are not fanned out yet from the change feed's retention", async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    const id = await insertClient(ctx.db, w.companyId, 'Outlives the retention');
    const changesOf = () => ctx.db.selectFrom('changes').select('seq').where('record_id', '=', id).execute();
    const everything = new Date(Date.now() + 86_400_000);
    await pruneChanges(ctx.db, everything);
    expect(await changesOf()).toHaveLength(1);
    expect((await deliveries(hook.id)).map((d) => d.record_id)).toEqual([id]);
    await pruneChanges(ctx.db, everything);
    expect(await changesOf()).toHaveLength(0);
  });

  it('sends approvals, invoices and estimates their events', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['approval.submitted', 'invoice.sent', 'invoice.paid', 'estimate.accepted'] });
    const entry = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2026-03-10', hours: 2 });
    expect(entry.statusCode, entry.body).toBe(201);
    const submitted = await submitAs(ctx.app, w.member, { from: '2026-03-09', to: '2026-03-15' });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const invoiceId = (await sql<{ id: string }>`insert into invoices (company_id, id, client_id, number, currency, issue_date, due_date)
      values (${w.companyId}, gen_random_uuid(), ${w.clientId}, ${`WH-${Date.now()}`}, 'EUR', '2026-03-01', '2026-03-31') returning id`.execute(ctx.db)).rows[0]!.id;
    await ctx.db.updateTable('invoices').set({ state: 'open', sent_at: new Date() }).where('id', '=', invoiceId).execute();
    await ctx.db.updateTable('invoices').set({ state: 'paid', paid_at: new Date() }).where('id', '=', invoiceId).execute();
    const estimateId = (await sql<{ id: string }>`insert into estimates (company_id, id, client_id, number, currency, issue_date)
      values (${w.companyId}, gen_random_uuid(), ${w.clientId}, ${`E-${Date.now()}`}, 'EUR', '2026-03-01') returning id`.execute(ctx.db)).rows[0]!.id;
    await ctx.db.updateTable('estimates').set({ state: 'accepted', accepted_at: new Date() }).where('id', '=', estimateId).execute();
    const rows = await deliveries(hook.id);
    expect(rows.map((d) => d.event_type)).toEqual(['approval.submitted', 'invoice.sent', 'invoice.paid', 'estimate.accepted']);
    expect(rows[0]!.record_id).toBe(w.member.userId);
    await drain();
    // Events of different records go out side by side: find the approval's among them.
    const approval = received.map((r) => JSON.parse(r.body)).find((b) => b.type === 'approval.submitted');
    expect(approval).toMatchObject({ type: 'approval.submitted', data: { user_id: w.member.userId, from: '2026-03-09', to: '2026-03-15', time_entry_count: 1, expense_count: 0, time_entry_ids: [entry.json().id] } });
  });
});

describe('delivery', () => {
  it('signs each delivery as Standard Webhooks has it (the package verifies it) and carries no private note', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['time_entry.created'] });
    const res = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2026-03-03', hours: 1.25, notes: 'Public words' });
    expect(res.statusCode, res.body).toBe(201);
    await ctx.db.updateTable('time_entries').set({ private_notes: 'PRIVATE-SENTINEL' }).where('id', '=', res.json().id).execute();
    await drain();
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const payload = new Webhook(hook.secret).verify(body, headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: 'time_entry.created', data: { id: res.json().id, hours: 1.25, notes: 'Public words', user_id: w.member.userId, project_id: w.project } });
    expect(payload.data).not.toHaveProperty('company_id');
    expect(payload.data).not.toHaveProperty('private_notes');
    expect(JSON.stringify(await deliveries(hook.id))).not.toContain('PRIVATE-SENTINEL');
    // Another secret does not verify it, nor does a changed body.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(body, headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(hook.secret).verify(body.replace('1.25', '9.25'), headers as Record<string, string>)).toThrow();
    expect((await deliveries(hook.id))[0]).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
  });

  it('retries a failing receiver with backoff, with the same id and body, until it recovers', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    await insertClient(ctx.db, w.companyId, 'Retried');
    answers = [500, 503];
    await drain();
    expect(received).toHaveLength(1);
    expect((await deliveries(hook.id))[0]).toMatchObject({ state: 'pending', attempts: 1, last_status: 500, last_error: 'HTTP 500' });
    await drain(); // not due yet
    expect(received).toHaveLength(1);
    ctx.clock.advance(5_000);
    await drain();
    expect(received).toHaveLength(2);
    ctx.clock.advance(5 * 60_000);
    await drain();
    expect(received).toHaveLength(3);
    expect((await deliveries(hook.id))[0]).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
  });

  it('judges an attempt by its status within the deadline: a trickled body is delivered, a status line that never completes fails at it', async () => {
    const open = new Set<import('node:net').Socket>();
    // Answers 200 at once, then a byte of body every 100 ms for a second: the status is the answer.
    const trickle = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-length': '10' });
      let n = 0;
      const timer = setInterval(() => {
        res.write('x');
        if (++n === 10) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
    });
    // Accepts the connection and sends a status line, then headers a byte at a time that never end:
    // never idle, never an answer (a socket's idle timeout alone would wait for ever).
    const stutter = (await import('node:net')).createServer((socket) => {
      open.add(socket);
      socket.on('error', () => {});
      const text = `HTTP/1.1 200 OK\r\n${'x-pad: 1\r\n'.repeat(1000)}`;
      let i = 0;
      const timer = setInterval(() => socket.write(text[i++ % text.length]!), 50);
      socket.on('close', () => clearInterval(timer));
    });
    await Promise.all([new Promise<void>((r) => trickle.listen(0, '127.0.0.1', r)), new Promise<void>((r) => stutter.listen(0, '127.0.0.1', r))]);
    try {
      const a = await addEndpoint(s.owner, { url: `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/a`, events: ['client.created'] });
      const b = await addEndpoint(s.owner, { url: `http://127.0.0.1:${(stutter.address() as AddressInfo).port}/b`, events: ['client.created'] });
      await insertClient(ctx.db, w.companyId, 'Deadline');
      await drain({ requestTimeoutMs: 500 });
      expect((await deliveries(a.id))[0]).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
      expect((await deliveries(b.id))[0]).toMatchObject({ state: 'pending', attempts: 1, last_status: null, last_error: 'no answer within 0.5 s' });
    } finally {
      for (const socket of open) socket.destroy();
      await Promise.all([new Promise((r) => trickle.close(r)), new Promise((r) => stutter.close(r))]);
    }
  });

  it("lets a silent receiver hold a few lanes only: another endpoint's event goes out while its deliveries wait", async () => {
    const held: import('node:http').ServerResponse[] = [];
    let answering = false;
    const silent = createServer((req, res) => {
      req.resume();
      if (answering) res.end();
      else held.push(res);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const dead = await addEndpoint(s.owner, { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/silent`, events: ['client.created'] });
      for (let i = 0; i < 12; i++) await insertClient(ctx.db, w.companyId, `Silent ${i}`);
      const live = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
      await insertClient(ctx.db, w.companyId, 'Live');
      await fannedOut(ctx.db);
      let heldWhenLiveArrived = -1;
      const arrived = new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (received.length > 0) {
            heldWhenLiveArrived = held.length;
            clearInterval(poll);
            resolve();
          }
        }, 5);
      });
      const pass = deliverDueWebhooks(worker({ requestTimeoutMs: 60_000 }));
      await arrived;
      // The live endpoint's one event went out while the silent one held its eight lanes (not all 32).
      expect(JSON.parse(received[0]!.body).data.name).toBe('Live');
      expect(heldWhenLiveArrived).toBeLessThanOrEqual(8);
      await new Promise((r) => setTimeout(r, 100));
      expect(held.length).toBe(8);
      answering = true;
      for (const res of held) res.end();
      // The pass sent the live one and the silent one's eight; its other five went back, due for the next.
      expect(await pass).toEqual({ delivered: 9, retried: 0, failed: 0 });
      expect((await deliveries(dead.id)).filter((d) => d.state === 'pending' && d.attempts === 0)).toHaveLength(5);
      await drain();
      expect((await deliveries(dead.id)).every((d) => d.state === 'delivered')).toBe(true);
      expect((await deliveries(live.id))[0]).toMatchObject({ state: 'delivered' });
    } finally {
      await new Promise((r) => silent.close(r));
    }
  });

  it("keeps a record's events in order: the next waits until the one before it is through", async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created', 'client.updated'] });
    const a = await insertClient(ctx.db, w.companyId, 'Ordered A');
    const b = await insertClient(ctx.db, w.companyId, 'Ordered B');
    await ctx.db.updateTable('clients').set({ name: 'Ordered A2' }).where('id', '=', a).execute();
    await ctx.db.updateTable('clients').set({ name: 'Ordered A3' }).where('id', '=', a).execute();
    // A's create fails, once. The worker sends A's and B's creates at once, so which arrives
    // first is not fixed: the answer goes by what the request carries, not by its turn.
    let failed = false;
    answerFor = (body) => {
      const event = JSON.parse(body) as { type: string; data: { name: string } };
      if (failed || event.type !== 'client.created' || event.data.name !== 'Ordered A') return undefined;
      failed = true;
      return 500;
    };
    await fannedOut(ctx.db);
    await deliverDueWebhooks(worker());
    // One pass sends the oldest of each record only: A's create (failed) and B's create.
    expect(received.map((r) => JSON.parse(r.body).data.name).sort()).toEqual(['Ordered A', 'Ordered B']);
    await drain();
    expect(received).toHaveLength(2); // A's updates wait for A's create, which waits 5 s
    ctx.clock.advance(5_000);
    await drain();
    const names = received.slice(2).map((r) => `${JSON.parse(r.body).type} ${JSON.parse(r.body).data.name}`);
    expect(names).toEqual(['client.created Ordered A', 'client.updated Ordered A2', 'client.updated Ordered A3']);
    expect((await deliveries(hook.id)).every((d) => d.state === 'delivered')).toBe(true);
    void b;
  });

  it('delivers each event once when two workers run at once', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    for (let i = 0; i < 30; i++) await insertClient(ctx.db, w.companyId, `Parallel ${i}`);
    await Promise.all([drain({ batchSize: 7 }), drain({ batchSize: 7 })]);
    expect(received).toHaveLength(30);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(30);
    expect((await deliveries(hook.id)).filter((d) => d.state === 'delivered')).toHaveLength(30);
  });

  it('gives up after more than a day, turns the endpoint off once and e-mails the administrators', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    await insertClient(ctx.db, w.companyId, 'Doomed 1');
    await insertClient(ctx.db, w.companyId, 'Doomed 2');
    const start = ctx.clock.now().getTime();
    answers = Array(100).fill(500);
    for (let i = 0; i < 12; i++) {
      await drain();
      ctx.clock.advance(10 * 3_600_000);
    }
    const rows = await deliveries(hook.id);
    expect(rows.map((d) => [d.state, d.attempts])).toEqual([
      ['failed', 8],
      ['failed', 8],
    ]);
    expect(ctx.clock.now().getTime() - start).toBeGreaterThan(24 * 3_600_000);
    const endpoint = await ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect(endpoint).toMatchObject({ is_active: false, disabled_reason: 'delivery_failing' });
    const mails = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', w.companyId).where('kind', '=', 'webhook_disabled').execute();
    const to = mails.map((m) => (typeof m.payload === 'string' ? JSON.parse(m.payload) : m.payload) as { to: Array<{ email: string }>; subject: string });
    expect(to.map((m) => m.to[0]!.email).sort()).toEqual([w.owner.email, w.admin.email].sort());
    expect(to[0]!.subject).toContain(receiverUrl);
    // Shown why, and turned on again by an administrator: new events go out.
    const shown = (await web(s.admin, 'GET', `/web/api/webhook_endpoints/${hook.id}`)).json();
    expect(shown).toMatchObject({ is_active: false, disabled_reason: 'delivery_failing', failed_count: 2 });
    expect((await web(s.admin, 'PATCH', `/web/api/webhook_endpoints/${hook.id}`, { is_active: true })).json()).toMatchObject({ is_active: true, disabled_reason: null, created_by: { id: w.admin.userId } });
    // The audit log has it too: turned off once by Sheaf (no person), why, and on again by the administrator, each naming the URL.
    expect((await auditOf(hook.id)).map((e) => [e.action, e.actor.type, e.subject.label, e.details])).toEqual([
      ['webhook_endpoint.created', 'user', receiverUrl, { url: receiverUrl, events: ['client.created'] }],
      ['webhook_endpoint.disabled', 'operator', receiverUrl, { url: receiverUrl, reason: 'delivery_failing' }],
      ['webhook_endpoint.updated', 'user', receiverUrl, { url: receiverUrl, changes: ['is_active'], is_active: true }],
    ]);
    answers = [];
    await insertClient(ctx.db, w.companyId, 'Alive');
    received.length = 0;
    await drain();
    expect(received.map((r) => JSON.parse(r.body).data.name)).toEqual(['Alive']);
  });

  it('resends a delivery with the same id and body, and lists the log newest first', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    for (const name of ['Log 1', 'Log 2', 'Log 3']) await insertClient(ctx.db, w.companyId, name);
    await drain();
    const page = (await web(s.admin, 'GET', `/web/api/webhook_endpoints/${hook.id}/deliveries?per_page=2`)).json();
    expect(page.deliveries).toHaveLength(2);
    expect(page.deliveries[0]).toMatchObject({ event_type: 'client.created', state: 'delivered', response_status: 200, attempts: 1, webhook_id: expect.stringMatching(/^msg_/) });
    const older = (await web(s.admin, 'GET', `/web/api/webhook_endpoints/${hook.id}/deliveries?per_page=2&before=${page.next_before}`)).json();
    expect(older).toMatchObject({ next_before: null });
    expect(older.deliveries).toHaveLength(1);
    expectError(await web(s.admin, 'GET', `/web/api/webhook_endpoints/${hook.id}/deliveries?before=abc`), 400, 'invalid_request', 'before');
    const first = older.deliveries[0];
    const firstBody = received.find((r) => r.headers['webhook-id'] === first.webhook_id)!.body;
    const resent = await web(s.admin, 'POST', `/web/api/webhook_endpoints/${hook.id}/deliveries/${first.id}/resend`);
    expect(resent.json()).toMatchObject({ state: 'pending', attempts: 0 });
    received.length = 0;
    await drain();
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['webhook-id']).toBe(first.webhook_id);
    expect(received[0]!.body).toBe(firstBody);
    expectError(await web(s.admin, 'POST', `/web/api/webhook_endpoints/${hook.id}/deliveries/${hook.id}/resend`), 404, 'not_found');
  });

  it('rotates the secret: both sign during the overlap, then only the new one', async () => {
    const hook = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    const rotated = await web(s.admin, 'POST', `/web/api/webhook_endpoints/${hook.id}/rotate_secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, previous_secret_valid_until } = rotated.json();
    expect(secret).not.toBe(hook.secret);
    expect(Date.parse(previous_secret_valid_until) - ctx.clock.now().getTime()).toBe(24 * 3_600_000);
    await insertClient(ctx.db, w.companyId, 'Rotated');
    await drain();
    // The test clock runs days ahead by now, past the verifier's 5 minutes of tolerance: compare signatures instead.
    const signedBy = (key: string, r: Received) =>
      String(r.headers['webhook-signature'])
        .split(' ')
        .includes(new Webhook(key).sign(String(r.headers['webhook-id']), new Date(Number(r.headers['webhook-timestamp']) * 1000), r.body));
    expect(String(received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(signedBy(secret, received[0]!) && signedBy(hook.secret, received[0]!)).toBe(true);
    ctx.clock.advance(24 * 3_600_000 + 1000);
    await insertClient(ctx.db, w.companyId, 'After overlap');
    await drain();
    const later = received[1]!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([signedBy(secret, later), signedBy(hook.secret, later)]).toEqual([true, false]);
    expect((await web(s.admin, 'GET', `/web/api/webhook_endpoints/${hook.id}`)).json().previous_secret_valid_until).toBeNull();
  });

  it('shows an endpoint as off from the moment its administrator is no longer one, and turning it on takes it over', async () => {
    const admin2 = await addMember(ctx.db, w.companyId, { role: 'administrator', firstName: 'Former' });
    const hook = await addEndpoint(await sessionFor(ctx.db, admin2, ctx.clock.now()), { url: receiverUrl, events: ['client.created'] });
    const other = await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    await ctx.db.updateTable('memberships').set({ role: 'member' }).where('company_id', '=', w.companyId).where('user_id', '=', admin2.userId).execute();
    // No event has reached the worker yet: the endpoint is still on in the database, but it would deliver nothing.
    const listed = (await web(s.owner, 'GET', '/web/api/webhook_endpoints')).json().webhook_endpoints;
    const shown = (id: string) => listed.find((e: { id: string }) => e.id === id);
    expect(shown(hook.id)).toMatchObject({ is_active: false, disabled_reason: 'administrator_inactive', created_by: { id: admin2.userId } });
    expect(shown(other.id)).toMatchObject({ is_active: true, disabled_reason: null });
    expect((await web(s.owner, 'GET', `/web/api/webhook_endpoints/${hook.id}`)).json()).toMatchObject({ is_active: false, disabled_reason: 'administrator_inactive' });
    const on = await web(s.owner, 'PATCH', `/web/api/webhook_endpoints/${hook.id}`, { is_active: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ is_active: true, disabled_reason: null, created_by: { id: w.owner.userId } });
    expect((await auditOf(hook.id)).find((e) => e.action === 'webhook_endpoint.updated')).toMatchObject({ details: expect.objectContaining({ is_active: true }) });
    await insertClient(ctx.db, w.companyId, 'Taken over');
    await drain();
    expect(received.map((r) => JSON.parse(r.body).data.name)).toEqual(['Taken over', 'Taken over']);
  });

  it("holds deliveries when the endpoint's administrator is no longer one", async () => {
    const admin2 = await addMember(ctx.db, w.companyId, { role: 'administrator', firstName: 'Temp' });
    const hook = await addEndpoint(await sessionFor(ctx.db, admin2, ctx.clock.now()), { url: receiverUrl, events: ['client.created'] });
    await ctx.db.updateTable('memberships').set({ role: 'member' }).where('company_id', '=', w.companyId).where('user_id', '=', admin2.userId).execute();
    await insertClient(ctx.db, w.companyId, 'Held');
    await drain();
    expect(received).toHaveLength(0);
    expect(await ctx.db.selectFrom('webhook_endpoints').select(['is_active', 'disabled_reason']).where('id', '=', hook.id).executeTakeFirstOrThrow()).toEqual({
      is_active: false,
      disabled_reason: 'administrator_inactive',
    });
    // Held is not an attempt: nothing was sent, so none is counted (nor taken from its retries) and no error is recorded.
    expect((await deliveries(hook.id))[0]).toMatchObject({ state: 'pending', attempts: 0, last_status: null, last_error: null });
    const logged = (await web(s.owner, 'GET', `/web/api/webhook_endpoints/${hook.id}/deliveries`)).json();
    expect(logged.deliveries[0]).toMatchObject({ state: 'pending', attempts: 0, next_attempt_at: null, last_attempt_at: null, error: null });
    expect((await auditOf(hook.id)).filter((e) => e.action === 'webhook_endpoint.disabled')).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ type: 'operator', user_id: null }), details: { url: receiverUrl, reason: 'administrator_inactive' } }),
    ]);
    await web(s.owner, 'PATCH', `/web/api/webhook_endpoints/${hook.id}`, { is_active: true });
    await drain();
    expect(received.map((r) => JSON.parse(r.body).data.name)).toEqual(['Held']);
    expect((await deliveries(hook.id))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
  });
});

describe('the backup and the command line', () => {
  it('exports endpoints without their secrets or deliveries', async () => {
    const hook = await addEndpoint(s.owner, { url: 'https://backup.example.com/x', events: ['client.created'] });
    const rotated = (await web(s.owner, 'POST', `/web/api/webhook_endpoints/${hook.id}/rotate_secret`)).json();
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/webhook_endpoints?per_page=500' });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().records.find((r: { id: string }) => r.id === hook.id);
    expect(record).toMatchObject({ url: 'https://backup.example.com/x', events: ['client.created'], is_active: true, created_by: w.owner.userId });
    expect(Object.keys(record).sort()).toEqual(['created_at', 'created_by', 'description', 'disabled_at', 'disabled_reason', 'events', 'id', 'is_active', 'updated_at', 'url']);
    expect(res.body).not.toContain(hook.secret);
    expect(res.body).not.toContain(rotated.secret);
    expect(res.body).not.toContain('whsec_');
  });

  it('sheaf admin webhook create, list and delete', async () => {
    const database = () => ({ db: ctx.db, kind: onPostgres ? 'postgresql' : 'pglite', close: async () => {} }) as unknown as Database;
    const sheaf = (...args: string[]) => runCli(args, { env: { LOG_LEVEL: 'silent' }, openDatabase: async () => database() });
    const made = await sheaf('admin', 'webhook', 'create', '--workspace', w.companyId, '--url', 'https://cli.example.com/hook', '--events', 'client.created,invoice.paid', '--json');
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ url: 'https://cli.example.com/hook', events: ['invoice.paid', 'client.created'], created_by: null, secret: expect.stringMatching(/^whsec_/) });
    const listed = await sheaf('admin', 'webhook', 'list', '--workspace', w.companyId, '--json');
    expect(listed.stdout).not.toContain(made.json.secret);
    expect(listed.json.map((e: { id: string }) => e.id)).toContain(made.json.id);
    const text = await sheaf('admin', 'webhook', 'list', '--workspace', w.companyId);
    expect(text.stdout).toContain('https://cli.example.com/hook');
    for (const bad of [
      ['--url', 'https://x.example.com', '--events', 'client.exploded'],
      ['--url', 'ftp://x.example.com', '--events', 'all'],
      ['--url', 'http://127.0.0.1/x', '--events', 'all'],
    ]) {
      const r = await sheaf('admin', 'webhook', 'create', '--workspace', w.companyId, ...bad);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/events|url/);
    }
    const deleted = await sheaf('admin', 'webhook', 'delete', '--workspace', w.companyId, '--endpoint', made.json.id);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await sheaf('admin', 'webhook', 'delete', '--workspace', w.companyId, '--endpoint', made.json.id)).code).toBe(3);
  });
});

describe.runIf(onPostgres)('order across transactions (PostgreSQL)', () => {
  it("sends a record's events in the order they were made when the later write's transaction holds the lower id", async () => {
    await addEndpoint(s.owner, { url: receiverUrl, events: ['client.updated'] });
    const id = await insertClient(ctx.db, w.companyId, 'Inverted');
    await ctx.db.connection().execute((later) =>
      ctx.db.connection().execute(async (between) => {
        // The later write's transaction takes its id first, then one that stays open while the
        // earlier write (a higher id) commits: the feed's horizon lets the later change through
        // and holds the earlier one back.
        await sql`begin`.execute(later);
        await sql`select pg_current_xact_id()`.execute(later);
        await sql`begin`.execute(between);
        await sql`select pg_current_xact_id()`.execute(between);
        await ctx.db.updateTable('clients').set({ name: 'Inverted first' }).where('id', '=', id).execute();
        await sql`update clients set name = 'Inverted second' where id = ${id}`.execute(later);
        await sql`commit`.execute(later);
        await deliverDueWebhooks(worker());
        expect(received).toHaveLength(0);
        await sql`commit`.execute(between);
      }),
    );
    await drain();
    expect(received.map((r) => JSON.parse(r.body).data.name)).toEqual(['Inverted first', 'Inverted second']);
  });

  it('holds all of a workspace back while many of its records wait behind a long transaction, then sends everything', async () => {
    await addEndpoint(s.owner, { url: receiverUrl, events: ['client.created'] });
    await insertClient(ctx.db, w.companyId, 'Before the long transaction');
    await fannedOut(ctx.db);
    await ctx.db.connection().execute(async (long) => {
      await sql`begin`.execute(long);
      await sql`select pg_current_xact_id()`.execute(long);
      for (const name of ['Behind 1', 'Behind 2', 'Behind 3']) await insertClient(ctx.db, w.companyId, name);
      const behind = await fanOutEvents(ctx.db, { recordsMax: 2 });
      expect(behind.workspaces).toContain(w.companyId);
      expect(behind.records.filter((r) => r.company_id === w.companyId)).toEqual([]);
      // The delivery made before the transaction began is due, yet waits with the rest of its workspace.
      const claimed = await claimDue(ctx.db, new Date(), new Date(Date.now() + 60_000), 200, behind);
      expect(claimed.filter((d) => d.company_id === w.companyId)).toEqual([]);
      await sql`commit`.execute(long);
    });
    await drain();
    expect(received.map((r) => JSON.parse(r.body).data.name).sort()).toEqual(['Before the long transaction', 'Behind 1', 'Behind 2', 'Behind 3']);
  });
});

describe.runIf(onPostgres)('a server killed mid-write (PostgreSQL)', () => {
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('loses no event: every committed time entry has its event, and no event lacks its entry', async () => {
    const hook = await addEndpoint(s.owner, { url: 'https://hooks.example.com/kill', events: ['time_entry.created'] });
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.db)).rows[0]!.schema;
    const child = spawn(process.execPath, [...SHEAF_BIN, 'serve', '--port', '0', '--json'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL, DATABASE_SCHEMA: schema, NODE_ENV: 'test', LOG_LEVEL: 'error', RATE_LIMIT_MAX: '100000', WEBHOOK_INTERVAL_MS: '0' },
    });
    children.add(child);
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const url = await listeningUrl(child, exited);
    let ok = 0;
    const posts = Array.from({ length: 60 }, (_, i) =>
      fetch(`${url}/api/v2/time_entries`, {
        method: 'POST',
        headers: { ...w.member.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: w.project, task_id: w.task, spent_date: '2026-04-01', hours: 0.1, notes: `kill ${i}` }),
      }).then(
        (r) => {
          if (r.status === 201 && ++ok === 15) child.kill('SIGKILL');
        },
        () => {},
      ),
    );
    await Promise.all(posts);
    child.kill('SIGKILL');
    await exited;
    children.delete(child);
    const entries = await ctx.db.selectFrom('time_entries').select('id').where('company_id', '=', w.companyId).where('notes', 'like', 'kill %').execute();
    const events = await deliveries(hook.id);
    expect(ok).toBeGreaterThanOrEqual(15);
    expect(entries.length).toBeGreaterThanOrEqual(15);
    expect(events.map((e) => e.record_id).sort()).toEqual(entries.map((e) => e.id).sort());
  });
});
