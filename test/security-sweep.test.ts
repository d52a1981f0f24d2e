import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { personalKeyAllows } from '../src/access/policy.ts';
import { createSession } from '../src/auth/sessions.ts';
import type { RouteEntry } from '../src/http/security.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTaskRow, assignUser } from './fixtures/catalog-rows.ts';
import { insertCategory, insertEntry, insertExpense, insertFile } from './fixtures/invoices.ts';
import { fannedOut } from './fixtures/webhooks.ts';

/**
 * The shared security test of DESIGN.md, run over every registered route so a
 * new route cannot forget the basics: no key → 401; a personal sync key → 403
 * unless the route is on its allowlist; a member → 403 on routes that declare a
 * stronger requirement; every API key → 403 on the web app's own routes; and the
 * ids of another workspace (or ids that exist nowhere) → 404, never 200 or 500.
 * The other workspace holds a row of every table a route's parameter names, so
 * each route meets a real foreign id; and the sweep fails when the router holds a
 * route it did not walk (besides the public ones listed in NOT_SWEPT).
 */

/** Which table holds the record a path parameter names, by the path segment before it. */
const TABLE_BY_SEGMENT: Record<string, string> = {
  clients: 'clients',
  deliveries: 'webhook_deliveries',
  working_patterns: 'planning_working_patterns',
  planning_assignments: 'planning_assignments',
  planning_placeholders: 'planning_placeholders',
  time_off: 'planning_time_off',
  contacts: 'contacts',
  projects: 'projects',
  tasks: 'tasks',
  task_assignments: 'tasks',
  user_assignments: 'users',
  users: 'users',
  time_entries: 'time_entries',
  expenses: 'expenses',
  expense_categories: 'expense_categories',
  invoices: 'invoices',
  keys: 'credentials',
  invitations: 'invitations',
  members: 'users',
  invoice_expense_receipts: 'files',
  attachments: 'invoice_attachments',
  sessions: 'sessions',
  passkeys: 'user_passkeys',
  recurring_invoices: 'recurring_invoice_schedules',
  'item-categories': 'invoice_item_categories',
  payments: 'invoice_payments',
  credits: 'invoice_line_items',
};

/** Path parameters that name no record: the foreign-id pick does not apply (an unknown value is still tried). */
const NOT_RECORDS: Record<string, string> = {
  ':resource': "a backup resource's name (clients, projects, ...), the same in every workspace",
};

/** Routes the sweep does not call, each with why: the public ones, which need no credential to refuse. */
const PUBLIC = 'public: no credential is needed, so there is nothing to refuse';
const NOT_SWEPT: Record<string, string> = {
  'GET /livez': PUBLIC,
  'GET /healthz': PUBLIC,
  'GET /api/v2/openapi.json': PUBLIC,
  'GET /web/api/openapi.json': PUBLIC,
  'POST /web/api/session': `${PUBLIC} (signing in)`,
  'POST /web/api/sign-in-links/redeem': `${PUBLIC} (a one-time link)`,
  'POST /web/api/session/two-factor': `${PUBLIC} (the second step of signing in: the challenge is the credential)`,
  'POST /web/api/session/passkey-options': `${PUBLIC} (signing in with a passkey: the options carry only a random challenge)`,
  'POST /web/api/session/passkey': `${PUBLIC} (signing in with a passkey: its signature is the credential)`,
  'POST /web/api/password-resets': `${PUBLIC} (a forgotten password)`,
  'POST /web/api/password-resets/lookup': `${PUBLIC} (a one-time link)`,
  'POST /web/api/password-resets/redeem': `${PUBLIC} (a one-time link)`,
  'POST /web/api/profile/email/confirm': `${PUBLIC} (a one-time link)`,
  'POST /web/api/invitations/lookup': `${PUBLIC} (a one-time link)`,
  'POST /web/api/invitations/accept': `${PUBLIC} (a one-time link)`,
  'POST /web/api/client-page': `${PUBLIC} (a client's link to an invoice)`,
  'POST /web/api/client-page/pdf': `${PUBLIC} (a client's link to an invoice)`,
  'POST /web/api/client-page/e-invoice': `${PUBLIC} (a client's link to an invoice: its e-invoice)`,
  'POST /web/api/client-page/accept': `${PUBLIC} (a client's link to an estimate: the client's answer)`,
  'POST /web/api/client-page/decline': `${PUBLIC} (a client's link to an estimate: the client's answer)`,
  'GET /calendar/:': `${PUBLIC} (a person's calendar feed: the token in the path is the credential)`,
  'GET /web/api/sso/discover': `${PUBLIC} (the sign-in page: which workspaces sign in through a provider)`,
  'GET /web/api/sso/:/start': `${PUBLIC} (signing in through a workspace's identity provider)`,
  'GET /web/api/sso/callback': `${PUBLIC} (the identity provider's redirect back: the state is the credential)`,
};

/** `METHOD /path` with every parameter written `:`, so two names of one parameter compare equal. */
const routeKey = (method: string, url: string) => `${method} ${url.replace(/:[^/|]+(\|:[^/|]+)*/g, ':')}`;

/**
 * Every route the router holds, read from Fastify's own tree (printRoutes), not
 * from the catalog the security hook builds, as routeKey (HEAD left out: Fastify
 * adds it to every GET).
 */
function registeredRoutes(app: FastifyInstance): string[] {
  const keys: string[] = [];
  const path: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (!line.trim()) continue;
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) throw new Error(`unexpected line in printRoutes: ${line}`);
    const depth = m[1].length / 4;
    path.length = depth;
    path.push(m[2]);
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') keys.push(routeKey(method, path.join('')));
  }
  return keys.sort();
}

describe('security sweep over every route', () => {
  let ctx: TestContext;
  let owner: Caller;
  let member: Caller;
  let personal: Caller;
  let foreignOwner: Caller;
  let ownerSession: Caller;
  const foreignIds: Record<string, string> = {};
  /** The routes (routeKey) the sweep called. */
  const swept = new Set<string>();

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Home'));
    member = await addMember(ctx.db, owner.companyId, { role: 'member' });
    personal = await addMember(ctx.db, owner.companyId, { role: 'member', keyKind: 'personal' });
    ownerSession = await sessionFor(ctx.db, owner);
    ({ owner: foreignOwner } = await createWorkspaceWithOwner(ctx.db, 'Elsewhere'));
    // A record of each kind in the other workspace, so its ids are real but foreign.
    const company = foreignOwner.companyId;
    const clientId = newId();
    await ctx.db.insertInto('clients').values({ company_id: company, id: clientId, name: 'Foreign client' }).execute();
    const projectId = newId();
    await ctx.db.insertInto('projects').values({ company_id: company, id: projectId, client_id: clientId, name: 'Foreign project' }).execute();
    const taskId = newId();
    await ctx.db.insertInto('tasks').values({ company_id: company, id: taskId, name: 'Foreign task' }).execute();
    const invitationId = newId();
    await ctx.db
      .insertInto('invitations')
      .values({ company_id: company, id: invitationId, token_hash: randomBytes(32), email: 'foreign@example.com', role: 'member', expires_at: new Date(Date.now() + 86_400_000) })
      .execute();
    await assignTaskRow(ctx.db, company, projectId, taskId);
    await assignUser(ctx.db, company, projectId, foreignOwner.userId);
    const categoryId = await insertCategory(ctx.db, company);
    const receipt = { filename: 'receipt.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 foreign') };
    const created = async (url: string, payload: object) => {
      const res = await request(ctx.app, foreignOwner, { method: 'POST', url, payload });
      if (res.statusCode !== 201) throw new Error(`POST ${url} as the foreign owner: ${res.statusCode} ${res.body}`);
      return (res.json() as { id: string }).id;
    };
    const work = { userId: foreignOwner.userId, projectId, date: '2026-01-05' };
    const foreignInvoice = await created('/api/v2/invoices', { client_id: clientId, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] });
    const attachmentFile = await insertFile(ctx.db, company, { filename: 'terms.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 terms') });
    const attachmentId = newId();
    await ctx.db.insertInto('invoice_attachments').values({ company_id: company, id: attachmentId, invoice_id: foreignInvoice, file_id: attachmentFile }).execute();
    Object.assign(foreignIds, {
      clients: clientId,
      projects: projectId,
      tasks: taskId,
      users: foreignOwner.userId,
      credentials: foreignOwner.keyId,
      invitations: invitationId,
      contacts: await created('/api/v2/contacts', { client_id: clientId, first_name: 'Foreign' }),
      expense_categories: categoryId,
      time_entries: await insertEntry(ctx.db, company, { ...work, taskId, status: 'unsubmitted' }),
      expenses: await insertExpense(ctx.db, company, { ...work, categoryId, cost: '12.50', status: 'unsubmitted' }),
      invoices: foreignInvoice,
      invoice_attachments: attachmentId,
      files: await insertFile(ctx.db, company, receipt),
      sessions: (await createSession(ctx.db, { userId: foreignOwner.userId, companyId: company, now: new Date() })).session.id,
      bank_accounts: await insertBankAccount(company),
      // A passkey is the person's, not the workspace's: the other workspace's owner's is foreign to this one's people.
      user_passkeys: (
        await ctx.db
          .insertInto('user_passkeys')
          .values({ id: newId(), user_id: foreignOwner.userId, credential_id: randomBytes(16).toString('base64url'), public_key: Buffer.from('key'), device_type: 'singleDevice', name: 'Theirs' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
      recurring_invoice_schedules: newId(),
      estimates: newId(),
    });
    await ctx.db
      .insertInto('recurring_invoice_schedules')
      .values({
        company_id: company,
        id: foreignIds.recurring_invoice_schedules,
        client_id: clientId,
        frequency: 'monthly',
        anchor_day: 1,
        start_date: '2026-01-01',
        source: 'lines',
        line_items: JSON.stringify([{ description: 'Foreign retainer', unit_price: 10 }]),
        action: 'draft',
      })
      .execute();
    const itemCategory = await ctx.db.selectFrom('invoice_item_categories').select('id').where('company_id', '=', company).executeTakeFirstOrThrow();
    foreignIds.invoice_item_categories = itemCategory.id;
    foreignIds.invoice_payments = newId();
    await ctx.db
      .insertInto('invoice_payments')
      .values({ company_id: company, id: foreignIds.invoice_payments, invoice_id: foreignIds.invoices, amount: '1.00', paid_date: '2026-01-06' })
      .execute();
    await ctx.db
      .insertInto('estimates')
      .values({ company_id: company, id: foreignIds.estimates, client_id: clientId, number: '1', issue_date: '2026-01-05', currency: 'EUR' })
      .execute();
    foreignIds.saved_reports = newId();
    await ctx.db
      .insertInto('saved_reports')
      .values({ company_id: company, id: foreignIds.saved_reports, owner_id: foreignOwner.userId, name: 'Foreign report', report: 'time', period: 'this_month', visibility: 'workspace' })
      .execute();
    foreignIds.webhook_endpoints = newId();
    await ctx.db
      .insertInto('webhook_endpoints')
      .values({ company_id: company, id: foreignIds.webhook_endpoints, url: 'https://hooks.example.com/foreign', events: ['client.created'], secret: 'whsec_Zm9yZWlnbg==' })
      .execute();
    // The endpoint's first event: a delivery of the other workspace.
    await ctx.db.insertInto('clients').values({ company_id: company, id: newId(), name: 'Foreign evented client' }).execute();
    await fannedOut(ctx.db);
    foreignIds.webhook_deliveries = (
      await ctx.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', foreignIds.webhook_endpoints).executeTakeFirstOrThrow()
    ).id;
    foreignIds.planning_working_patterns = newId();
    await ctx.db
      .insertInto('planning_working_patterns')
      .values({ company_id: company, id: foreignIds.planning_working_patterns, user_id: foreignOwner.userId, effective_from: '2026-01-01', monday: '8' })
      .execute();
    foreignIds.planning_time_off = newId();
    await ctx.db
      .insertInto('planning_time_off')
      .values({ company_id: company, id: foreignIds.planning_time_off, user_id: foreignOwner.userId, kind: 'vacation', starts_on: '2026-01-05', ends_on: '2026-01-09' })
      .execute();
    foreignIds.planning_placeholders = newId();
    await ctx.db.insertInto('planning_placeholders').values({ company_id: company, id: foreignIds.planning_placeholders, name: 'Foreign role' }).execute();
    foreignIds.planning_assignments = newId();
    await ctx.db
      .insertInto('planning_assignments')
      .values({ company_id: company, id: foreignIds.planning_assignments, project_id: foreignIds.projects, placeholder_id: foreignIds.planning_placeholders, starts_on: '2026-01-05', ends_on: '2026-01-09', hours_per_day: '4' })
      .execute();
    foreignIds.retainers = newId();
    await ctx.db.insertInto('retainers').values({ company_id: company, id: foreignIds.retainers, client_id: clientId, name: 'Foreign retainer', currency: 'EUR' }).execute();
    foreignIds.invoice_line_items = newId();
    await ctx.db
      .insertInto('invoice_line_items')
      .values({ company_id: company, id: foreignIds.invoice_line_items, invoice_id: foreignIds.invoices, kind: 'Retainer', unit_price: '1', effect: 'credit', retainer_id: foreignIds.retainers })
      .execute();
  });
  afterAll(() => ctx.close());

  async function insertBankAccount(company: string) {
    const id = newId();
    await ctx.db.insertInto('bank_accounts').values({ company_id: company, id, currency: 'EUR', holder: 'Foreign holder', iban: 'DE89370400440532013000' }).execute();
    return id;
  }

  const routes = () => ctx.app.routeCatalog.filter((r) => r.access !== 'public');
  /** API routes: every credential kind; web routes refuse them all (403 session_required). */
  const apiRoutes = () => routes().filter((r) => !r.web);

  /** The route's URL with each parameter replaced by an id from `pick` (an unknown value for NOT_RECORDS). */
  function fill(url: string, pick: (table: string) => string) {
    const segments = url.split('/');
    return segments
      .map((segment, i) => {
        if (!segment.startsWith(':')) return segment;
        if (NOT_RECORDS[segment]) return newId();
        const table = TABLE_BY_SEGMENT[segments[i - 1]] ?? segments[i - 1];
        return pick(table);
      })
      .join('/');
  }

  /** The id of the other workspace's row of `table`; a table without one fails the sweep. */
  const foreign = (table: string) => {
    const id = foreignIds[table];
    if (!id) throw new Error(`no row of '${table}' in the other workspace: seed one in beforeAll`);
    return id;
  };

  /** Calls a route as the sweep, noting that it was swept. */
  function call(route: RouteEntry, caller: Caller | null, url: string, headers?: Record<string, string>) {
    swept.add(routeKey(route.method, route.url));
    return request(ctx.app, caller, { method: route.method as 'GET', url, headers });
  }

  it('has routes to check', () => {
    expect(routes().length).toBeGreaterThan(2);
  });

  it('answers 401 in the error shape without credentials, with the standard headers', async () => {
    for (const route of routes()) {
      const res = await call(route, null, fill(route.url, () => newId()));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized' });
      expect(res.headers['x-service-features']).toBeDefined();
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers.vary).toBe('Authorization, Service-Account-Id, Cookie');
    }
  });

  it('refuses every API key on every web-only route: only a browser session may call them', async () => {
    const web = routes().filter((r) => r.web);
    expect(web.length).toBeGreaterThan(0);
    for (const caller of [owner, member, personal]) {
      for (const route of web) {
        const res = await call(route, caller, fill(route.url, () => newId()));
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().error).toBe('session_required');
      }
    }
  });

  it('refuses a personal sync key everywhere but its seven allowlisted requests', async () => {
    for (const route of apiRoutes()) {
      const res = await call(route, personal, fill(route.url, () => newId()));
      if (personalKeyAllows(route.method, route.url)) {
        expect(res.statusCode, `${route.method} ${route.url}`).not.toBe(403);
      } else {
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
    }
  });

  it('refuses a member on routes that declare a stronger requirement', async () => {
    for (const route of apiRoutes().filter((r) => r.access !== 'authenticated')) {
      const res = await call(route, member, fill(route.url, () => newId()));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it('refuses a member’s browser session on web routes that declare a stronger requirement', async () => {
    const memberSession = await sessionFor(ctx.db, member);
    const stronger = routes().filter((r) => r.web && r.access !== 'authenticated' && r.access !== 'signed-in');
    expect(stronger.length).toBeGreaterThan(3);
    for (const route of stronger) {
      const res = await call(route, memberSession, fill(route.url, () => newId()));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });

  it('gives 404 for another workspace’s ids and for ids that exist nowhere, on every read and delete', async () => {
    const readOrDelete = routes().filter((r) => r.url.includes(':') && (r.method === 'GET' || r.method === 'DELETE'));
    for (const route of readOrDelete) {
      for (const pick of [foreign, () => newId(), () => 'not-an-id']) {
        const url = fill(route.url, pick);
        // Web routes are called by the owner's browser session, API routes with the owner's key.
        const res = await call(route, route.web ? ownerSession : owner, url, { 'if-match': '*' });
        expect(res.statusCode, `${route.method} ${url}`).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    }
  });

  it('swept every route the router holds, but for the public ones NOT_SWEPT lists', () => {
    const registered = registeredRoutes(ctx.app);
    expect(registered.length).toBeGreaterThan(100);
    for (const key of Object.keys(NOT_SWEPT)) expect(registered, `NOT_SWEPT names ${key}, which no route serves`).toContain(key);
    const missed = registered.filter((key) => !swept.has(key) && !NOT_SWEPT[key]);
    expect(missed, 'routes the sweep never called').toEqual([]);
    expect([...swept].filter((key) => NOT_SWEPT[key]), 'NOT_SWEPT routes the sweep called after all').toEqual([]);
    expect(swept.size + Object.keys(NOT_SWEPT).length).toBe(registered.length);
  });
});
