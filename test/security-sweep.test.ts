import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newId } from '../src/ids.ts';
import { personalKeyAllows } from '../src/access/policy.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * The shared security test of DESIGN.md, run over every registered route so a
 * new route cannot forget the basics: no key → 401; a personal sync key → 403
 * unless the route is on its allowlist; a member → 403 on routes that declare a
 * stronger requirement; every API key → 403 on the web app's own routes; and the
 * ids of another workspace (or ids that exist nowhere) → 404, never 200 or 500.
 */

/** Which table holds the record a path parameter names, by the path segment before it. */
const TABLE_BY_SEGMENT: Record<string, string> = {
  clients: 'clients',
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
};

describe('security sweep over every route', () => {
  let ctx: TestContext;
  let owner: Caller;
  let member: Caller;
  let personal: Caller;
  let foreignOwner: Caller;
  let ownerSession: Caller;
  const foreignIds: Record<string, string> = {};

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
    Object.assign(foreignIds, { clients: clientId, projects: projectId, tasks: taskId, users: foreignOwner.userId });
    for (const table of ['contacts', 'time_entries', 'expenses', 'expense_categories', 'invoices']) {
      const row = await sql<{ id: string }>`select id from ${sql.table(table)} where company_id = ${company} limit 1`
        .execute(ctx.db)
        .catch(() => ({ rows: [] as { id: string }[] }));
      if (row.rows[0]) foreignIds[table] = row.rows[0].id;
    }
  });
  afterAll(() => ctx.close());

  const routes = () => ctx.app.routeCatalog.filter((r) => r.access !== 'public');
  /** API routes: every credential kind; web routes refuse them all (403 session_required). */
  const apiRoutes = () => routes().filter((r) => !r.web);

  /** The route's URL with each parameter replaced by an id from `pick`. */
  function fill(url: string, pick: (table: string) => string) {
    const segments = url.split('/');
    return segments
      .map((segment, i) => {
        if (!segment.startsWith(':')) return segment;
        const table = TABLE_BY_SEGMENT[segments[i - 1]] ?? segments[i - 1];
        return pick(table);
      })
      .join('/');
  }

  it('has routes to check', () => {
    expect(routes().length).toBeGreaterThan(2);
  });

  it('answers 401 in the error shape without credentials, with the standard headers', async () => {
    for (const route of routes()) {
      const res = await request(ctx.app, null, { method: route.method as 'GET', url: fill(route.url, () => newId()) });
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
        const res = await request(ctx.app, caller, { method: route.method as 'GET', url: fill(route.url, () => newId()) });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().error).toBe('session_required');
      }
    }
  });

  it('refuses a personal sync key everywhere but its seven allowlisted requests', async () => {
    for (const route of apiRoutes()) {
      const res = await request(ctx.app, personal, { method: route.method as 'GET', url: fill(route.url, () => newId()) });
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
      const res = await request(ctx.app, member, { method: route.method as 'GET', url: fill(route.url, () => newId()) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it('gives 404 for another workspace’s ids and for ids that exist nowhere, on every read and delete', async () => {
    const readOrDelete = routes().filter((r) => r.url.includes(':') && (r.method === 'GET' || r.method === 'DELETE'));
    for (const route of readOrDelete) {
      for (const pick of [(table: string) => foreignIds[table] ?? newId(), () => newId(), () => 'not-an-id']) {
        const url = fill(route.url, pick);
        // Web routes are called by the owner's browser session, API routes with the owner's key.
        const res = await request(ctx.app, route.web ? ownerSession : owner, { method: route.method as 'GET', url, headers: { 'if-match': '*' } });
        expect(res.statusCode, `${route.method} ${url}`).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    }
  });
});
