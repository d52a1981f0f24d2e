import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KIND, PRODUCT_KIND } from '../src/modules/billing/invoices/kinds.ts';
import { PRODUCT_CATEGORY, SERVICE_CATEGORY, matchKind } from '../src/modules/billing/item-categories/index.ts';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { runCli } from './cli-runner.ts';
import { createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTask, insertClient, insertEntry, insertProject, insertTask, makeInvoiceWorkspace, setRate, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Issue 25 item 3: invoice item categories. Service and Product are built in; owners
 * and administrators add, rename, archive and restore others in the web app (and the
 * operator with `sheaf admin item-category`); a line's kind must name an active
 * category (ignoring case, stored as the category spells it), through the API's
 * invoice create and PATCH too; imported service lines keep `SERVICE`; a line
 * keeps a category archived or renamed since.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let client: string;
let foreign: { owner: Caller; session: Caller };
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  client = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  const other = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
  foreign = { owner: other.owner, session: await sessionFor(ctx.db, other.owner, ctx.clock.now()) };
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PATCH';
const api = (caller: Caller, method: Method, url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
const listOf = async (caller: Caller) => (await api(caller, 'GET', '/web/api/item-categories')).json().item_categories as Array<Record<string, any>>;
const add = (caller: Caller, name: unknown) => api(caller, 'POST', '/web/api/item-categories', { name });
const patch = (caller: Caller, id: string, body: unknown) => api(caller, 'PATCH', `/web/api/item-categories/${id}`, body);
const rows = (companyId = w.companyId) =>
  ctx.db.selectFrom('invoice_item_categories').select(['id', 'name', 'is_active', 'is_builtin', 'updated_at']).where('company_id', '=', companyId).orderBy('name').execute();
const idOf = async (name: string, companyId = w.companyId) => (await rows(companyId)).find((r) => r.name === name)!.id;

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, ...(field ? { field } : {}) });
}

/** A category added by the administrator; its id. */
async function category(name: string) {
  const res = await add(s.admin, name);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const createInvoice = (lines: unknown[]) => api(w.owner, 'POST', '/api/v2/invoices', { client_id: client, line_items: lines });
const invoiceCount = async () => Number((await ctx.db.selectFrom('invoices').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow()).n);

describe('the built-in categories', () => {
  it('every new workspace has Service and Product, built in, and the names agree with the invoices\' kinds', async () => {
    const list = await listOf(s.admin);
    expect(list.map((c) => [c.name, c.is_builtin, c.is_active])).toEqual([
      ['Product', true, true],
      ['Service', true, true],
    ]);
    expect(SERVICE_CATEGORY).toBe(DEFAULT_KIND);
    expect(PRODUCT_CATEGORY).toBe(PRODUCT_KIND);
    expect((await rows(foreign.owner.companyId)).map((r) => r.name)).toEqual(['Product', 'Service']);
  });

  it('the migration gives each existing workspace the two (UUIDv7 ids), leaving one that has them alone', async () => {
    const file = readFileSync(new URL('../src/db/migrations/0081_invoice_item_categories.sql', import.meta.url), 'utf8');
    const insert = /insert into invoice_item_categories[\s\S]*?\);\s*$/m.exec(file)?.[0];
    expect(insert).toBeDefined();
    const bare = newId();
    await ctx.db.insertInto('companies').values({ id: bare, name: 'Pre-0081 workspace' }).execute();
    const has = await createWorkspace(ctx.db, { name: 'Has them' });
    const before = await rows(has.id);
    await sql.raw(insert!).execute(ctx.db);
    const seeded = await rows(bare);
    expect(seeded.map((r) => [r.name, r.is_builtin, r.is_active])).toEqual([
      ['Product', true, true],
      ['Service', true, true],
    ]);
    for (const r of seeded) expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await rows(has.id)).toEqual(before);
    await sql.raw(insert!).execute(ctx.db);
    expect(await rows(bare)).toHaveLength(2);
  });

  it('are never renamed or archived (409 naming the field), and a PATCH that changes nothing is fine', async () => {
    const service = await idOf('Service');
    expectError(await patch(s.admin, service, { name: 'Services' }), 409, 'conflict', 'name');
    expectError(await patch(s.owner, service, { is_active: false }), 409, 'conflict', 'is_active');
    const same = await patch(s.admin, service, { name: 'Service', is_active: true });
    expect(same.statusCode, same.body).toBe(200);
    expect((await rows()).find((r) => r.id === service)).toMatchObject({ name: 'Service', is_active: true });
  });
});

describe('adding, renaming, archiving', () => {
  it('an administrator adds one (trimmed), renames it, archives and restores it; each is audited', async () => {
    const res = await add(s.admin, '  Hosting  ');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Hosting', is_builtin: false, is_active: true });
    const id = res.json().id;
    expect((await patch(s.owner, id, { name: 'Hosting and domains' })).json()).toMatchObject({ name: 'Hosting and domains' });
    expect((await patch(s.admin, id, { is_active: false })).json()).toMatchObject({ is_active: false });
    expect((await patch(s.admin, id, { is_active: true })).json()).toMatchObject({ is_active: true });
    const actions = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', id).orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual([
      'invoice_item_category.created',
      'invoice_item_category.renamed',
      'invoice_item_category.archived',
      'invoice_item_category.restored',
    ]);
  });

  it('names are unique in the workspace ignoring case (409 naming name), also against archived ones; another workspace may use the name', async () => {
    const id = await category('Licences');
    expectError(await add(s.admin, 'LICENCES'), 409, 'conflict', 'name');
    expectError(await add(s.admin, 'product'), 409, 'conflict', 'name');
    const other = await category('Licences two');
    expectError(await patch(s.admin, other, { name: 'licences' }), 409, 'conflict', 'name');
    await patch(s.admin, id, { is_active: false });
    expectError(await add(s.admin, 'Licences'), 409, 'conflict', 'name');
    expect((await add(foreign.session, 'Licences')).statusCode).toBe(201);
    expect((await rows()).filter((r) => r.name.toLowerCase() === 'licences')).toHaveLength(1);
  });

  it('two adds of one name at once: one is created, the other is 409', async () => {
    const answers = await Promise.all([add(s.admin, 'Racing'), add(s.owner, 'racing')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect((await rows()).filter((r) => r.name.toLowerCase() === 'racing')).toHaveLength(1);
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const before = await rows();
    expectError(await add(s.admin, ''), 400, 'invalid_request', 'name');
    expectError(await add(s.admin, '   '), 400, 'invalid_request', 'name');
    expectError(await add(s.admin, 'x'.repeat(65)), 400, 'invalid_request', 'name');
    expectError(await add(s.admin, 'Two\nlines'), 400, 'invalid_request', 'name');
    expectError(await add(s.admin, 'Nul\u0000'), 400, 'invalid_request', 'name');
    expectError(await add(s.admin, 42), 400, 'invalid_request');
    expectError(await api(s.admin, 'POST', '/web/api/item-categories', {}), 400, 'invalid_request');
    expectError(await api(s.admin, 'POST', '/web/api/item-categories', { name: 'Extra', color: 'red' }), 400, 'unknown_field');
    expectError(await api(s.admin, 'POST', '/web/api/item-categories', { name: 'Extra', is_active: false }), 400, 'unknown_field', 'is_active');
    expectError(await api(s.admin, 'POST', '/web/api/item-categories', { name: 'Extra', is_builtin: true }), 400, 'unknown_field', 'is_builtin');
    const id = await idOf('Product');
    expectError(await patch(s.admin, id, {}), 400, 'invalid_request');
    expectError(await patch(s.admin, id, { is_active: 'no' }), 400, 'invalid_request');
    expectError(await patch(s.admin, id, { id: newId() }), 400, 'unknown_field', 'id');
    expect(await rows()).toEqual(before);
  });

  it('is for owners and administrators: managers and members 403, API keys 403 session_required; managers who use invoices read the list', async () => {
    const id = await category('Roles');
    for (const caller of [s.mgrInvoices, s.mgrPlain, s.member]) {
      expectError(await add(caller, 'Nope'), 403, 'forbidden');
      expectError(await patch(caller, id, { name: 'Nope' }), 403, 'forbidden');
    }
    expectError(await add(w.admin, 'Nope'), 403, 'session_required');
    expectError(await api(w.admin, 'GET', '/web/api/item-categories'), 403, 'session_required');
    expect((await listOf(s.mgrInvoices)).map((c) => c.name)).toContain('Roles');
    expect((await listOf(s.mgrPlain)).map((c) => c.name)).toContain('Roles');
    expectError(await api(s.member, 'GET', '/web/api/item-categories'), 403, 'forbidden');
    expect((await rows()).find((r) => r.name === 'Nope')).toBeUndefined();
    expect((await rows()).find((r) => r.id === id)).toMatchObject({ name: 'Roles' });
  });

  it('keeps to its workspace: another workspace\'s category and a malformed id are 404; its list is its own', async () => {
    const theirs = await idOf('Service', foreign.owner.companyId);
    expectError(await patch(s.admin, theirs, { is_active: false }), 404, 'not_found');
    const mine = await category('Mine only');
    expectError(await patch(foreign.session, mine, { name: 'Taken over' }), 404, 'not_found');
    expectError(await patch(s.admin, 'not-an-id', { name: 'x' }), 404, 'not_found');
    expect((await listOf(foreign.session)).map((c) => c.name)).not.toContain('Mine only');
    expect((await rows()).find((r) => r.id === mine)).toMatchObject({ name: 'Mine only' });
  });
});

describe("a line's kind through /api/v2/invoices", () => {
  it('create: an omitted kind is Service; a kind matches an active category ignoring case and is stored as the category spells it', async () => {
    await category('Consulting');
    const res = await createInvoice([
      { description: 'A', unit_price: 1 },
      { description: 'B', unit_price: 1, kind: 'product' },
      { description: 'C', unit_price: 1, kind: '  CONSULTING ' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().line_items.map((l: { kind: string }) => l.kind)).toEqual(['Service', 'Product', 'Consulting']);
  });

  it('create: a kind that names no active category is 400 naming line_items[i].kind, and no invoice is made', async () => {
    const archived = await category('Retired');
    await patch(s.admin, archived, { is_active: false });
    const before = await invoiceCount();
    for (const kind of ['Gadget', 'Retired', 'Expense', 'SERVICES']) {
      const res = await createInvoice([{ description: 'A', unit_price: 1 }, { description: 'B', unit_price: 1, kind }]);
      expectError(res, 400, 'invalid_request', 'line_items.1.kind');
      expect(res.json().error_description).toContain("'Service'");
    }
    expectError(await createInvoice([{ description: 'A', kind: '' }]), 400, 'invalid_request', 'line_items.0.kind');
    expectError(await createInvoice([{ description: 'A', kind: 'x'.repeat(65) }]), 400, 'invalid_request');
    expect(await invoiceCount()).toBe(before);
    // The web app's preview runs the same create.
    expectError(await api(s.owner, 'POST', '/web/api/invoices/preview', { client_id: client, line_items: [{ kind: 'Gadget' }] }), 400, 'invalid_request', 'line_items.0.kind');
  });

  it('PATCH: a new kind must name an active category (400 naming line_items.i.kind, nothing changed); matched ignoring case', async () => {
    const inv = (await createInvoice([{ description: 'A', unit_price: 5 }, { description: 'B', unit_price: 5 }])).json();
    const [a, b] = inv.line_items.map((l: { id: string }) => l.id);
    const bad = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'Changed', line_items: [{ id: a, description: 'A2' }, { id: b, kind: 'Gadget' }] });
    expectError(bad, 400, 'invalid_request', 'line_items.1.kind');
    const after = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(after).toMatchObject({ subject: null, updated_at: inv.updated_at });
    expect(after.line_items.map((l: { kind: string; description: string }) => [l.kind, l.description])).toEqual([
      ['Service', 'A'],
      ['Service', 'B'],
    ]);
    const good = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: b, kind: 'PRODUCT' }] });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().line_items.map((l: { kind: string }) => l.kind)).toEqual(['Service', 'Product']);
  });

  it('a line keeps a category archived or renamed later: a PATCH that leaves its kind (or sends it again) succeeds', async () => {
    const travel = await category('Travel');
    const inv = (await createInvoice([{ description: 'Train', unit_price: 80, kind: 'Travel' }])).json();
    const line = inv.line_items[0].id;
    await patch(s.admin, travel, { is_active: false });
    const untouched = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line, description: 'Train to Hamburg', unit_price: 90 }] });
    expect(untouched.statusCode, untouched.body).toBe(200);
    expect(untouched.json().line_items[0]).toMatchObject({ kind: 'Travel', description: 'Train to Hamburg', unit_price: 90 });
    const resent = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line, kind: 'travel', description: 'Train' }] });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().line_items[0].kind).toBe('Travel');
    // Renamed (and restored): the line keeps the text it was given.
    await patch(s.admin, travel, { is_active: true, name: 'Trips' });
    const kept = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(kept.line_items[0].kind).toBe('Travel');
    expectError(
      await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line, kind: 'Retired' }] }),
      400,
      'invalid_request',
      'line_items.0.kind',
    );
    const moved = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line, kind: 'trips' }] });
    expect(moved.json().line_items[0].kind).toBe('Trips');
  });

  it('imported service lines keep SERVICE: a PATCH that sends it back, or Service in any case, keeps it', async () => {
    const c = w.companyId;
    const importClient = await insertClient(ctx.db, c, { name: 'Imported Co' });
    const projectId = await insertProject(ctx.db, c, importClient, { name: 'Website', billBy: 'project' });
    const task = await insertTask(ctx.db, c, 'Design');
    await assignTask(ctx.db, c, projectId, task);
    await setRate(ctx.db, c, { projectId, from: '2025-01-01', rate: '100' });
    await insertEntry(ctx.db, c, { userId: w.member.userId, projectId, taskId: task, date: '2026-01-05', seconds: 3600 });
    const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: importClient, line_items_import: { time: { summary_type: 'project' } } });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json();
    expect(inv.line_items[0].kind).toBe('SERVICE');
    const line = inv.line_items[0].id;
    for (const kind of ['SERVICE', 'Service', 'service']) {
      const again = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line, kind, description: `As ${kind}` }] });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().line_items[0].kind).toBe('SERVICE');
    }
    const product = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line, kind: 'Product' }] });
    expect(product.json().line_items[0].kind).toBe('Product');
  });

  it('matchKind: the category\'s spelling, or 400 naming the field with the choices', () => {
    expect(matchKind(['Service', 'Product'], ' product ', 'line_items.3.kind')).toBe('Product');
    expect(() => matchKind(['Service'], 'Gadget', 'line_items.3.kind')).toThrow(/line_items\.3\.kind must name an active invoice item category \('Service'\)/);
  });
});

describe('backup and command line', () => {
  it('the backup exports the workspace\'s categories, archived ones too, and no other workspace\'s', async () => {
    const archived = await category('Archived for backup');
    await patch(s.admin, archived, { is_active: false });
    const res = await api(w.owner, 'GET', '/api/v2/backup/invoice_item_categories?per_page=500');
    expect(res.statusCode, res.body).toBe(200);
    const records = res.json().records as Array<Record<string, unknown>>;
    expect(records.map((r) => r.name)).toEqual(expect.arrayContaining(['Service', 'Product', 'Archived for backup']));
    expect(records.find((r) => r.id === archived)).toEqual({
      id: archived,
      name: 'Archived for backup',
      is_builtin: false,
      is_active: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const theirs = (await api(foreign.owner, 'GET', '/api/v2/backup/invoice_item_categories')).json().records as Array<{ name: string }>;
    expect(theirs.map((r) => r.name)).not.toContain('Archived for backup');
  });

  it('sheaf admin item-category list|add|rename|archive|unarchive, as the operator', async () => {
    const env = { LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' };
    const openDatabase = async () => ({ db: ctx.db, kind: 'pglite' as const, close: async () => {} });
    const sheaf = (...args: string[]) => runCli([...args, '--json'], { env, openDatabase });
    const ws = (await createWorkspace(ctx.db, { name: 'CLI workspace' })).id;
    const added = await sheaf('admin', 'item-category', 'add', '--workspace', ws, '--name', ' Support ');
    expect(added.code, added.stderr).toBe(0);
    expect(added.json).toMatchObject({ name: 'Support', is_builtin: false, is_active: true });
    expect((await sheaf('admin', 'item-category', 'rename', '--workspace', ws, '--category', 'support', '--name', 'Support plan')).json).toMatchObject({ name: 'Support plan' });
    expect((await sheaf('admin', 'item-category', 'archive', '--workspace', ws, '--category', added.json.id)).json).toMatchObject({ is_active: false });
    expect((await sheaf('admin', 'item-category', 'list', '--workspace', ws, '--active', 'true')).json.map((c: { name: string }) => c.name)).toEqual(['Product', 'Service']);
    expect((await sheaf('admin', 'item-category', 'unarchive', '--workspace', ws, '--category', 'Support plan')).json).toMatchObject({ is_active: true });
    const list = await sheaf('admin', 'item-category', 'list', '--workspace', ws);
    expect(list.json.map((c: { name: string }) => c.name)).toEqual(['Product', 'Service', 'Support plan']);
    // Refusals: a bad name exits 2 before the database; a taken name, a built-in one and an unknown category are refused, changing nothing.
    expect((await sheaf('admin', 'item-category', 'add', '--workspace', ws, '--name', 'x'.repeat(65))).code).toBe(2);
    expect((await sheaf('admin', 'item-category', 'add', '--workspace', ws, '--name', 'SERVICE')).code).not.toBe(0);
    expect((await sheaf('admin', 'item-category', 'archive', '--workspace', ws, '--category', 'Service')).code).not.toBe(0);
    const unknown = await sheaf('admin', 'item-category', 'rename', '--workspace', ws, '--category', 'Nothing', '--name', 'Y');
    expect(unknown.code).not.toBe(0);
    expect(unknown.error?.error_description ?? unknown.stderr).toContain('item-category list');
    expect((await rows(ws)).map((r) => [r.name, r.is_active])).toEqual([
      ['Product', true],
      ['Service', true],
      ['Support plan', true],
    ]);
  });
});
