import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';
import { etagOf } from '../src/http/etag.ts';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { addMember, createTestContext, issueKey, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Clients: every rule of the spec's Client sections, for every identity of the
 * permissions table. Projects and assignments are inserted directly: the
 * projects API is built separately.
 */

const FULL_FIELDS = [
  'id',
  'name',
  'is_active',
  'address',
  'currency',
  'payment_terms',
  'payment_days',
  'tax',
  'tax2',
  'discount',
  'language',
  'vat_id',
  'invoice_email',
  'street',
  'postal_code',
  'city',
  'country_code',
  'buyer_reference',
  'created_at',
  'updated_at',
].sort();
const E_INVOICE_FIELDS = ['street', 'postal_code', 'city', 'country_code', 'buyer_reference'];
const BILLING_FIELDS = ['payment_terms', 'payment_days', 'tax', 'tax2', 'discount', 'language', 'vat_id', 'invoice_email', ...E_INVOICE_FIELDS];
const BASIC_FIELDS = FULL_FIELDS.filter((f) => !BILLING_FIELDS.includes(f));

interface Workspace {
  companyId: string;
  owner: Caller;
  admin: Caller;
  /** manager with edit_clients_and_tasks */
  mgrEdit: Caller;
  /** manager without any permission */
  mgrPlain: Caller;
  /** manager with edit_projects only: sees all clients, cannot write them */
  mgrProjects: Caller;
  /** manager with view_invoices only */
  mgrInvoices: Caller;
  member: Caller;
  contractor: Caller;
  /** personal sync key of `member` */
  memberPersonal: Caller;
  /** personal sync key of `admin` */
  adminPersonal: Caller;
}

let ctx: TestContext;
let counter = 0;
const uniqueName = (label = 'Client') => `${label} ${++counter} ${Math.random().toString(36).slice(2, 8)}`;

async function makeWorkspace(db: Kysely<DB>, name = 'Acme'): Promise<Workspace> {
  const company = await createWorkspace(db, { name });
  const c = company.id;
  const admin = await addMember(db, c, { role: 'administrator' });
  const member = await addMember(db, c, { role: 'member' });
  return {
    companyId: c,
    owner: await addMember(db, c, { role: 'owner' }),
    admin,
    mgrEdit: await addMember(db, c, { role: 'manager', permissions: ['edit_clients_and_tasks'] }),
    mgrPlain: await addMember(db, c, { role: 'manager' }),
    mgrProjects: await addMember(db, c, { role: 'manager', permissions: ['edit_projects'] }),
    mgrInvoices: await addMember(db, c, { role: 'manager', permissions: ['view_invoices'] }),
    member,
    contractor: await addMember(db, c, { role: 'member', isContractor: true }),
    memberPersonal: await issueKey(db, c, member.userId, member.email, 'personal'),
    adminPersonal: await issueKey(db, c, admin.userId, admin.email, 'personal'),
  };
}

function api(caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  return request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });
}

async function createClient(caller: Caller, body: Record<string, unknown> = {}) {
  const res = await api(caller, 'POST', '/api/v2/clients', { name: uniqueName(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return { ...res.json(), etag: res.headers.etag as string };
}

async function getClient(caller: Caller, id: string) {
  return api(caller, 'GET', `/api/v2/clients/${id}`);
}

async function insertProject(companyId: string, clientId: string, { isActive = true } = {}) {
  const id = newId();
  await ctx.db
    .insertInto('projects')
    .values({ company_id: companyId, id, client_id: clientId, name: `Project ${id}`, is_active: isActive })
    .execute();
  return id;
}

async function assign(companyId: string, projectId: string, userId: string, isActive = true) {
  await ctx.db
    .insertInto('project_user_assignments')
    .values({ company_id: companyId, project_id: projectId, user_id: userId, is_active: isActive })
    .onConflict((oc) => oc.columns(['company_id', 'project_id', 'user_id']).doUpdateSet({ is_active: isActive }))
    .execute();
}

async function storedClient(companyId: string, id: string) {
  return ctx.db.selectFrom('clients').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

async function countClients(companyId: string) {
  const row = await ctx.db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function auditActions(companyId: string, subjectId: string) {
  const rows = await ctx.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'details'])
    .where('company_id', '=', companyId)
    .where('subject_id', '=', subjectId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return rows;
}

let ws: Workspace;
let other: Workspace;

beforeAll(async () => {
  ctx = await createTestContext();
  ws = await makeWorkspace(ctx.db, 'Acme');
  other = await makeWorkspace(ctx.db, 'Other');
});
afterAll(() => ctx?.close());

describe('POST /api/v2/clients', () => {
  it('takes the language of the client\'s invoices, and a PATCH changes it', async () => {
    const res = await api(ws.owner, 'POST', '/api/v2/clients', { name: uniqueName('Deutsch'), language: 'de' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().language).toBe('de');
    const patched = await api(ws.owner, 'PATCH', `/api/v2/clients/${res.json().id}`, { language: 'en' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await getClient(ws.owner, res.json().id)).json().language).toBe('en');
  });

  it('creates a client with 201, Location and an ETag matching the item read', async () => {
    const name = uniqueName('Minimal');
    const res = await api(ws.owner, 'POST', '/api/v2/clients', { name });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(FULL_FIELDS);
    expect(body).toMatchObject({
      name,
      is_active: true,
      address: null,
      currency: 'USD',
      payment_terms: null,
      payment_days: null,
      tax: null,
      tax2: null,
      discount: null,
      language: 'en',
    });
    expect(body).not.toHaveProperty('company_id');
    expect(body.created_at).toMatch(/Z$/);
    expect(res.headers.location).toBe(`/api/v2/clients/${body.id}`);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    // The ETag is the hash of the exact body bytes sent.
    expect(res.headers.etag).toBe(etagOf(JSON.parse(res.body)));

    const read = await getClient(ws.owner, body.id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
    expect(read.headers.etag).toBe(res.headers.etag);
    expect(read.headers['cache-control']).toBe('private, no-store');
  });

  it('stores every writable property and renders percentages as exact JSON numbers', async () => {
    const input = {
      name: uniqueName('Full'),
      address: '1 Main St\nSpringfield',
      currency: 'EUR',
      payment_terms: 'custom',
      payment_days: 21,
      tax: 8.25,
      tax2: 12.3456,
      discount: 0,
      is_active: true,
    };
    const res = await api(ws.owner, 'POST', '/api/v2/clients', input);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject(input);
    expect(res.body).toContain('"tax":8.25');
    expect(res.body).toContain('"tax2":12.3456');
    const stored = await storedClient(ws.companyId, res.json().id);
    expect(stored).toMatchObject({ tax: '8.2500', tax2: '12.3456', discount: '0.0000', currency: 'EUR' });

    const hundred = await api(ws.owner, 'POST', '/api/v2/clients', { name: uniqueName(), tax: 100, payment_terms: 'net_30' });
    expect(hundred.statusCode).toBe(201);
    expect(hundred.json()).toMatchObject({ tax: 100, payment_terms: 'net_30', payment_days: null });
  });

  it('trims the name', async () => {
    const name = uniqueName('Trim');
    const res = await api(ws.owner, 'POST', '/api/v2/clients', { name: `  ${name}  ` });
    expect(res.json().name).toBe(name);
  });

  it.each([
    ['owner', 201],
    ['admin', 201],
    ['mgrEdit', 201],
    ['mgrPlain', 403],
    ['mgrProjects', 403],
    ['mgrInvoices', 403],
    ['member', 403],
    ['contractor', 403],
    ['memberPersonal', 403],
    ['adminPersonal', 403],
  ] as const)('%s gets %i', async (who, status) => {
    const before = await countClients(ws.companyId);
    const res = await api(ws[who], 'POST', '/api/v2/clients', { name: uniqueName(who) });
    expect(res.statusCode).toBe(status);
    expect(await countClients(ws.companyId)).toBe(before + (status === 201 ? 1 : 0));
    if (status === 403) expect(res.json().error).toBe('forbidden');
  });

  it('needs a credential', async () => {
    const res = await api(null, 'POST', '/api/v2/clients', { name: uniqueName() });
    expect(res.statusCode).toBe(401);
  });

  it('lets only owners and administrators create an archived client', async () => {
    const byManager = await api(ws.mgrEdit, 'POST', '/api/v2/clients', { name: uniqueName(), is_active: false });
    expect(byManager.statusCode).toBe(403);
    const byAdmin = await api(ws.admin, 'POST', '/api/v2/clients', { name: uniqueName(), is_active: false });
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.json().is_active).toBe(false);
  });

  const n = 'Valid name';
  it.each([
    ['missing name', {}, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['empty name', { name: '' }, 'name'],
    ['null name', { name: null }, 'name'],
    ['numeric name', { name: 5 }, 'name'],
    ['long name', { name: 'x'.repeat(256) }, 'name'],
    ['unknown field', { name: n, colour: 'red' }, 'colour'],
    ['read-only id', { name: n, id: newId() }, 'id'],
    ['read-only created_at', { name: n, created_at: '2024-01-01T00:00:00Z' }, 'created_at'],
    ['read-only updated_at', { name: n, updated_at: '2024-01-01T00:00:00Z' }, 'updated_at'],
    ['string tax', { name: n, tax: '5' }, 'tax'],
    ['tax above 100', { name: n, tax: 100.5 }, 'tax'],
    ['negative discount', { name: n, discount: -1 }, 'discount'],
    ['five decimals', { name: n, tax2: 12.34567 }, 'tax2'],
    ['float noise', { name: n, tax: 0.1 + 0.2 }, 'tax'],
    ['unknown currency', { name: n, currency: 'XYZ' }, 'currency'],
    ['lower-case currency', { name: n, currency: 'eur' }, 'currency'],
    ['long currency', { name: n, currency: 'EURO' }, 'currency'],
    ['unknown payment term', { name: n, payment_terms: 'net_90' }, 'payment_terms'],
    ['custom without days', { name: n, payment_terms: 'custom' }, 'payment_days'],
    ['custom with null days', { name: n, payment_terms: 'custom', payment_days: null }, 'payment_days'],
    ['net_30 with days', { name: n, payment_terms: 'net_30', payment_days: 10 }, 'payment_days'],
    ['days without a term', { name: n, payment_days: 10 }, 'payment_days'],
    ['days above 365', { name: n, payment_terms: 'custom', payment_days: 366 }, 'payment_days'],
    ['negative days', { name: n, payment_terms: 'custom', payment_days: -1 }, 'payment_days'],
    ['fractional days', { name: n, payment_terms: 'custom', payment_days: 1.5 }, 'payment_days'],
    ['string is_active', { name: n, is_active: 'yes' }, 'is_active'],
    ['long address', { name: n, address: 'a'.repeat(2001) }, 'address'],
    ['unknown language', { name: n, language: 'fr' }, 'language'],
    ['null language', { name: n, language: null }, 'language'],
    ['upper-case language', { name: n, language: 'DE' }, 'language'],
  ])('rejects %s with a 400 naming the field, creating nothing', async (_label, body, field) => {
    const before = await countClients(ws.companyId);
    const res = await api(ws.owner, 'POST', '/api/v2/clients', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
    expect(res.json().message).toEqual(expect.any(String));
    expect(await countClients(ws.companyId)).toBe(before);
  });

  it('rejects a body that is not an object, and invalid JSON', async () => {
    expect((await api(ws.owner, 'POST', '/api/v2/clients', [])).statusCode).toBe(400);
    const bad = await request(ctx.app, ws.owner, {
      method: 'POST',
      url: '/api/v2/clients',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a body over 128 KiB with 413', async () => {
    const res = await api(ws.owner, 'POST', '/api/v2/clients', { name: uniqueName(), address: 'a'.repeat(130 * 1024) });
    expect(res.statusCode).toBe(413);
  });

  it('refuses a duplicate name in the workspace, ignoring case, with 409', async () => {
    const name = uniqueName('Dup');
    await createClient(ws.owner, { name });
    const before = await countClients(ws.companyId);
    const res = await api(ws.mgrEdit, 'POST', '/api/v2/clients', { name: ` ${name.toUpperCase()} ` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'conflict', field: 'name' });
    expect(await countClients(ws.companyId)).toBe(before);
    // Another workspace may use the same name.
    expect((await api(other.owner, 'POST', '/api/v2/clients', { name })).statusCode).toBe(201);
  });

  it('writes an audit entry naming the actor', async () => {
    const c = await createClient(ws.mgrEdit);
    const entries = await auditActions(ws.companyId, c.id);
    expect(entries).toEqual([expect.objectContaining({ action: 'client.created', actor_user_id: ws.mgrEdit.userId })]);
  });
});

describe('Idempotency-Key on client mutations', () => {
  it('replays the first response for the same key and body, creating one record', async () => {
    const key = `create-${newId()}`;
    const body = { name: uniqueName('Idem') };
    const first = await api(ws.owner, 'POST', '/api/v2/clients', body, { 'idempotency-key': key });
    const second = await api(ws.owner, 'POST', '/api/v2/clients', body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const rows = await ctx.db.selectFrom('clients').select('id').where('company_id', '=', ws.companyId).where('name', '=', body.name).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses the same key with a different body (409) and a malformed key (400)', async () => {
    const key = `create-${newId()}`;
    await api(ws.owner, 'POST', '/api/v2/clients', { name: uniqueName() }, { 'idempotency-key': key });
    const reuse = await api(ws.owner, 'POST', '/api/v2/clients', { name: uniqueName() }, { 'idempotency-key': key });
    expect(reuse.statusCode).toBe(409);
    const before = await countClients(ws.companyId);
    const bad = await api(ws.owner, 'POST', '/api/v2/clients', { name: uniqueName() }, { 'idempotency-key': 'short' });
    expect(bad.statusCode).toBe(400);
    expect(await countClients(ws.companyId)).toBe(before);
  });

  it('creates exactly one client when the same key is sent several times at once', async () => {
    const key = `race-${newId()}`;
    const body = { name: uniqueName('Race') };
    const before = await countClients(ws.companyId);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api(ws.owner, 'POST', '/api/v2/clients', body, { 'idempotency-key': key })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses).toContain(201);
    for (const r of responses) {
      if (r.statusCode === 409) expect(r.json().error).toBe('idempotency_key_in_use');
      else expect(r.statusCode).toBe(201);
    }
    expect(new Set(responses.filter((r) => r.statusCode === 201).map((r) => r.json().id)).size).toBe(1);
    expect(await countClients(ws.companyId)).toBe(before + 1);
  });

  it('creates exactly one client when two different keys race for the same name', async () => {
    const body = { name: uniqueName('NameRace') };
    const responses = await Promise.all([
      api(ws.owner, 'POST', '/api/v2/clients', body, { 'idempotency-key': `a-${newId()}` }),
      api(ws.owner, 'POST', '/api/v2/clients', body, { 'idempotency-key': `b-${newId()}` }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('replays a PATCH', async () => {
    const c = await createClient(ws.owner);
    const key = `patch-${newId()}`;
    const first = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'A' }, { 'idempotency-key': key });
    await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'B' });
    const replay = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'A' }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await storedClient(ws.companyId, c.id))?.address).toBe('B');
  });
});

describe('GET /api/v2/clients and /api/v2/clients/:id: visibility by identity', () => {
  let v: Workspace;
  const ids: Record<string, string> = {};
  let projectAlpha: string;

  beforeAll(async () => {
    v = await makeWorkspace(ctx.db, 'Visibility');
    // Names chosen so that case-insensitive order differs from byte order.
    for (const name of ['beta', 'Alpha', 'gamma', 'Delta']) {
      const res = await api(v.owner, 'POST', '/api/v2/clients', { name, tax: 5, payment_terms: 'net_15' });
      ids[name] = res.json().id;
    }
    projectAlpha = await insertProject(v.companyId, ids.Alpha);
    await assign(v.companyId, projectAlpha, v.member.userId);
    await assign(v.companyId, projectAlpha, v.mgrPlain.userId);
    const projectBeta = await insertProject(v.companyId, ids.beta);
    await assign(v.companyId, projectBeta, v.member.userId, false); // inactive assignment: not visible
    await assign(v.companyId, projectBeta, v.contractor.userId);
    const projectDelta = await insertProject(v.companyId, ids.Delta, { isActive: false });
    await assign(v.companyId, projectDelta, v.member.userId);
    await api(v.owner, 'PATCH', `/api/v2/clients/${ids.Delta}`, { is_active: false });
  });

  const names = async (caller: Caller, query = '') => {
    const res = await api(caller, 'GET', `/api/v2/clients${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().clients as Array<{ name: string }>).map((c) => c.name);
  };

  it.each([
    ['owner', ['Alpha', 'beta', 'Delta', 'gamma']],
    ['admin', ['Alpha', 'beta', 'Delta', 'gamma']],
    ['mgrEdit', ['Alpha', 'beta', 'Delta', 'gamma']],
    ['mgrProjects', ['Alpha', 'beta', 'Delta', 'gamma']],
    ['mgrInvoices', []],
    ['mgrPlain', ['Alpha']],
    ['member', ['Alpha', 'Delta']],
    ['contractor', ['beta']],
    ['memberPersonal', ['Alpha', 'Delta']],
    ['adminPersonal', ['Alpha', 'beta', 'Delta', 'gamma']],
  ] as const)('%s lists %j (by name, ignoring case)', async (who, expected) => {
    expect(await names(v[who])).toEqual(expected);
  });

  it.each([
    ['member', 'gamma', 404],
    ['member', 'beta', 404],
    ['member', 'Alpha', 200],
    ['member', 'Delta', 200],
    ['contractor', 'Alpha', 404],
    ['mgrPlain', 'gamma', 404],
    ['mgrInvoices', 'Alpha', 404],
    ['memberPersonal', 'Alpha', 200],
    ['memberPersonal', 'gamma', 404],
    ['adminPersonal', 'gamma', 200],
    ['mgrProjects', 'gamma', 200],
  ] as const)('%s reading %s gets %i', async (who, name, status) => {
    const res = await getClient(v[who], ids[name]);
    expect(res.statusCode).toBe(status);
    if (status === 404) expect(res.json().error).toBe('not_found');
  });

  it('shows invoicing defaults only to those who may edit clients or view invoices', async () => {
    await assign(v.companyId, projectAlpha, v.mgrInvoices.userId);
    try {
      for (const who of ['owner', 'admin', 'mgrEdit', 'mgrInvoices', 'adminPersonal'] as const) {
        const res = await getClient(v[who], ids.Alpha);
        expect(Object.keys(res.json()).sort(), who).toEqual(FULL_FIELDS);
        expect(res.json()).toMatchObject({ tax: 5, payment_terms: 'net_15' });
      }
      for (const who of ['mgrPlain', 'member', 'memberPersonal'] as const) {
        const res = await getClient(v[who], ids.Alpha);
        expect(Object.keys(res.json()).sort(), who).toEqual(BASIC_FIELDS);
        for (const field of BILLING_FIELDS) expect(res.body).not.toContain(`"${field}"`);
        const list = await api(v[who], 'GET', '/api/v2/clients');
        for (const field of BILLING_FIELDS) expect(list.body).not.toContain(`"${field}"`);
      }
      const mgrProjects = await getClient(v.mgrProjects, ids.Alpha);
      expect(Object.keys(mgrProjects.json()).sort()).toEqual(BASIC_FIELDS);
    } finally {
      await assign(v.companyId, projectAlpha, v.mgrInvoices.userId, false);
    }
  });

  it('gives each permission-filtered body its own ETag, stable across reads', async () => {
    const ownerRead1 = await getClient(v.owner, ids.Alpha);
    const ownerRead2 = await getClient(v.owner, ids.Alpha);
    const memberRead = await getClient(v.member, ids.Alpha);
    expect(ownerRead1.headers.etag).toBe(ownerRead2.headers.etag);
    expect(memberRead.headers.etag).not.toBe(ownerRead1.headers.etag);
    expect(memberRead.headers.etag).toBe(etagOf(JSON.parse(memberRead.body)));
    expect(ownerRead1.headers.etag).toBe(etagOf(JSON.parse(ownerRead1.body)));
  });

  it('follows assignment changes on the next request', async () => {
    const project = await insertProject(v.companyId, ids.gamma);
    await assign(v.companyId, project, v.memberPersonal.userId);
    expect(await names(v.memberPersonal)).toEqual(['Alpha', 'Delta', 'gamma']);
    expect((await getClient(v.memberPersonal, ids.gamma)).statusCode).toBe(200);
    await assign(v.companyId, project, v.memberPersonal.userId, false);
    expect(await names(v.member)).toEqual(['Alpha', 'Delta']);
    expect((await getClient(v.memberPersonal, ids.gamma)).statusCode).toBe(404);
  });

  it('filters by is_active and updated_since', async () => {
    expect(await names(v.owner, '?is_active=false')).toEqual(['Delta']);
    expect(await names(v.owner, '?is_active=true')).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names(v.member, '?is_active=true')).toEqual(['Alpha']);
    await ctx.db
      .updateTable('clients')
      .set({ updated_at: new Date('2031-01-01T00:00:00Z') })
      .where('company_id', '=', v.companyId)
      .where('id', '=', ids.gamma)
      .execute();
    expect(await names(v.owner, '?updated_since=2030-12-31T00:00:00Z')).toEqual(['gamma']);
    expect(await names(v.owner, '?updated_since=2031-01-01T00:00:00Z')).toEqual(['gamma']);
    expect(await names(v.owner, '?updated_since=2031-01-01T00:00:01Z')).toEqual([]);
    expect(await names(v.owner, `?updated_since=${encodeURIComponent('2031-01-01T01:00:00+02:00')}`)).toEqual(['gamma']);
    expect(await names(v.memberPersonal, '?updated_since=2030-12-31T00:00:00Z')).toEqual([]);
    // "An ISO 8601 timestamp" (the spec) in any of its forms: a date alone is its midnight UTC, a
    // time without an offset is UTC, the basic format, RFC 3339's space; each was a 400.
    for (const since of ['2031-01-01', '2031-01-01T00:00:00', '20310101T000000Z', '20310101', '2031-01-01 00:00:00Z', '2031-001']) {
      expect(await names(v.owner, `?updated_since=${encodeURIComponent(since)}`), since).toEqual(['gamma']);
    }
    for (const since of ['2031-01-02', '2031-01-01T00:00:01', '20310101T000001Z']) {
      expect(await names(v.owner, `?updated_since=${encodeURIComponent(since)}`), since).toEqual([]);
    }
  });

  it('pages with the envelope', async () => {
    const res = await api(v.owner, 'GET', '/api/v2/clients?per_page=3');
    expect(res.json()).toMatchObject({
      page: 1,
      per_page: 3,
      total_pages: 2,
      total_entries: 4,
      links: {
        first: '/api/v2/clients?per_page=3&page=1',
        next: '/api/v2/clients?per_page=3&page=2',
        previous: null,
        last: '/api/v2/clients?per_page=3&page=2',
      },
    });
    const second = await api(v.owner, 'GET', '/api/v2/clients?per_page=3&page=2');
    expect(second.json().clients.map((c: { name: string }) => c.name)).toEqual(['gamma']);
    expect(second.json().links.next).toBeNull();
    const past = await api(v.owner, 'GET', '/api/v2/clients?per_page=3&page=5');
    expect(past.json()).toMatchObject({ clients: [], total_entries: 4, total_pages: 2 });
    const dflt = await api(v.owner, 'GET', '/api/v2/clients');
    expect(dflt.json()).toMatchObject({ page: 1, per_page: 100, total_pages: 1 });
  });

  it.each([
    ['is_active=yes', 'is_active'],
    ['updated_since=yesterday', 'updated_since'],
    ['updated_since=2024-13-01T00:00:00Z', 'updated_since'],
    ['per_page=0', 'per_page'],
    ['per_page=2001', 'per_page'],
    ['page=0', 'page'],
    ['colour=red', 'colour'],
  ])('rejects the filter %s with 400', async (query, field) => {
    const res = await api(v.owner, 'GET', `/api/v2/clients?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('shows the workspace currency for a client without its own, and changes the ETag when it changes', async () => {
    const before = await getClient(v.owner, ids.Alpha);
    expect(before.json().currency).toBe('USD');
    await ctx.db.updateTable('companies').set({ currency: 'GBP' }).where('id', '=', v.companyId).execute();
    try {
      const after = await getClient(v.owner, ids.Alpha);
      expect(after.json().currency).toBe('GBP');
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const eur = await api(v.owner, 'PATCH', `/api/v2/clients/${ids.Alpha}`, { currency: 'EUR' });
      expect(eur.json().currency).toBe('EUR');
      const back = await api(v.owner, 'PATCH', `/api/v2/clients/${ids.Alpha}`, { currency: null });
      expect(back.json().currency).toBe('GBP');
    } finally {
      await ctx.db.updateTable('companies').set({ currency: 'USD' }).where('id', '=', v.companyId).execute();
    }
  });

  it('serves a personal sync key its list without workspace internals', async () => {
    const res = await api(v.memberPersonal, 'GET', '/api/v2/clients');
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('company_id');
  });
});

describe('PATCH /api/v2/clients/:id', () => {
  it('changes the given properties; the ETag and updated_at follow the body', async () => {
    const c = await createClient(ws.owner, { address: 'Old' });
    ctx.clock.advance(60_000);
    const res = await api(ws.mgrEdit, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'New', tax: 7.5 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: c.id, name: c.name, address: 'New', tax: 7.5 });
    expect(body.updated_at).not.toBe(c.updated_at);
    expect(body.created_at).toBe(c.created_at);
    expect(res.headers.etag).not.toBe(c.etag);
    const read = await getClient(ws.owner, c.id);
    expect(read.headers.etag).toBe(res.headers.etag);
    expect(read.json()).toEqual(body);
  });

  it('writes nothing when nothing changes: same ETag, same updated_at, no audit entry', async () => {
    const c = await createClient(ws.owner, { tax: 8.25, name: uniqueName() });
    ctx.clock.advance(60_000);
    const res = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { tax: 8.25, name: c.name, is_active: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe(c.etag);
    expect(res.json().updated_at).toBe(c.updated_at);
    expect((await auditActions(ws.companyId, c.id)).map((e) => e.action)).toEqual(['client.created']);
  });

  it('logs the change in the audit log', async () => {
    const c = await createClient(ws.owner);
    await api(ws.mgrEdit, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'Audited' });
    const entries = await auditActions(ws.companyId, c.id);
    expect(entries.map((e) => e.action)).toEqual(['client.created', 'client.updated']);
    expect(entries[1]).toMatchObject({ actor_user_id: ws.mgrEdit.userId, details: { changes: { address: 'Audited' } } });
  });

  it.each([
    ['an empty body', {}, undefined],
    ['an unknown property', { address: 'x', colour: 'red' }, 'colour'],
    ['read-only id', { id: newId() }, 'id'],
    ['read-only created_at', { address: 'x', created_at: '2024-01-01T00:00:00Z' }, 'created_at'],
    ['read-only updated_at', { updated_at: '2024-01-01T00:00:00Z' }, 'updated_at'],
    ['a wrong-typed tax', { tax: '5' }, 'tax'],
    ['a wrong-typed is_active', { is_active: 'false' }, 'is_active'],
    ['a blank name', { name: ' ' }, 'name'],
    ['an unknown currency', { currency: 'ABC' }, 'currency'],
    ['days on a net term', { payment_days: 5 }, 'payment_days'],
    ['custom without days', { payment_terms: 'custom' }, 'payment_days'],
  ])('rejects %s with 400 and changes nothing', async (_label, body, field) => {
    const c = await createClient(ws.owner, { address: 'Keep', payment_terms: 'net_30' });
    const res = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, body);
    expect(res.statusCode, res.body).toBe(400);
    if (field) expect(res.json().field).toBe(field);
    const read = await getClient(ws.owner, c.id);
    expect(read.headers.etag).toBe(c.etag);
  });

  it('applies the payment-terms rule to the merged state', async () => {
    const c = await createClient(ws.owner, { payment_terms: 'custom', payment_days: 10 });
    const days = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { payment_days: 20 });
    expect(days.json()).toMatchObject({ payment_terms: 'custom', payment_days: 20 });
    const clearDays = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { payment_days: null });
    expect(clearDays.statusCode).toBe(400);
    const net = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { payment_terms: 'net_45' });
    expect(net.json()).toMatchObject({ payment_terms: 'net_45', payment_days: null });
    const netWithDays = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { payment_terms: 'net_60', payment_days: 3 });
    expect(netWithDays.statusCode).toBe(400);
    const back = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { payment_terms: 'custom', payment_days: 0 });
    expect(back.json()).toMatchObject({ payment_terms: 'custom', payment_days: 0 });
    const none = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { payment_terms: null });
    expect(none.json()).toMatchObject({ payment_terms: null, payment_days: null });
  });

  it('clears nullable properties with null', async () => {
    const c = await createClient(ws.owner, { address: 'A', tax: 1, tax2: 2, discount: 3, currency: 'EUR' });
    const res = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: null, tax: null, tax2: null, discount: null, currency: null });
    expect(res.json()).toMatchObject({ address: null, tax: null, tax2: null, discount: null, currency: 'USD' });
  });

  it('refuses a name another client has (ignoring case) with 409, but allows re-casing its own', async () => {
    const a = await createClient(ws.owner);
    const b = await createClient(ws.owner);
    const clash = await api(ws.owner, 'PATCH', `/api/v2/clients/${b.id}`, { name: a.name.toLowerCase() });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().field).toBe('name');
    expect((await storedClient(ws.companyId, b.id))?.name).toBe(b.name);
    const recase = await api(ws.owner, 'PATCH', `/api/v2/clients/${b.id}`, { name: b.name.toUpperCase() });
    expect(recase.statusCode).toBe(200);
    expect(recase.json().name).toBe(b.name.toUpperCase());
  });

  it('honours If-Match: current or * passes, stale or weak is 412 and changes nothing', async () => {
    const c = await createClient(ws.owner);
    const stale = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'x' }, { 'if-match': '"stale"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toBe('precondition_failed');
    const weak = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'x' }, { 'if-match': `W/${c.etag}` });
    expect(weak.statusCode).toBe(412);
    expect((await getClient(ws.owner, c.id)).headers.etag).toBe(c.etag);
    const ok = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'y' }, { 'if-match': c.etag });
    expect(ok.statusCode).toBe(200);
    const again = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'z' }, { 'if-match': c.etag });
    expect(again.statusCode).toBe(412);
    const star = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'z' }, { 'if-match': '*' });
    expect(star.statusCode).toBe(200);
    const list = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'w' }, { 'if-match': `"nope", ${star.headers.etag}` });
    expect(list.statusCode).toBe(200);
  });

  it.each(['mgrPlain', 'mgrProjects', 'mgrInvoices', 'member', 'contractor', 'memberPersonal', 'adminPersonal'] as const)(
    '%s may not update (403) and nothing changes',
    async (who) => {
      const c = await createClient(ws.owner);
      const project = await insertProject(ws.companyId, c.id);
      await assign(ws.companyId, project, ws[who].userId);
      const res = await api(ws[who], 'PATCH', `/api/v2/clients/${c.id}`, { address: 'hacked' });
      expect(res.statusCode).toBe(403);
      expect((await storedClient(ws.companyId, c.id))?.address).toBeNull();
    },
  );
});

describe('archive and restore', () => {
  it('administrators archive and restore a client without active projects', async () => {
    const c = await createClient(ws.owner);
    await insertProject(ws.companyId, c.id, { isActive: false });
    const archived = await api(ws.admin, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().is_active).toBe(false);
    const restored = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: true });
    expect(restored.json().is_active).toBe(true);
    expect((await auditActions(ws.companyId, c.id)).map((e) => e.action)).toEqual([
      'client.created',
      'client.archived',
      'client.restored',
    ]);
  });

  it('refuses to archive a client with active projects (409) and changes nothing', async () => {
    const c = await createClient(ws.owner);
    await insertProject(ws.companyId, c.id);
    await insertProject(ws.companyId, c.id, { isActive: false });
    const res = await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false, address: 'changed' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'conflict', active_project_count: 1 });
    expect(await storedClient(ws.companyId, c.id)).toMatchObject({ is_active: true, address: null });
    expect((await getClient(ws.owner, c.id)).headers.etag).toBe(c.etag);
  });

  it('lets only owners and administrators change is_active (403 for others, nothing changes)', async () => {
    const c = await createClient(ws.owner);
    for (const who of ['mgrEdit', 'mgrPlain', 'member', 'contractor', 'memberPersonal'] as const) {
      const res = await api(ws[who], 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false, address: 'x' });
      expect(res.statusCode, who).toBe(403);
    }
    expect(await storedClient(ws.companyId, c.id)).toMatchObject({ is_active: true, address: null });
    await api(ws.owner, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false });
    const restore = await api(ws.mgrEdit, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: true });
    expect(restore.statusCode).toBe(403);
    expect((await storedClient(ws.companyId, c.id))?.is_active).toBe(false);
  });

  it('lets a client editor send the unchanged is_active (no archive or restore happens)', async () => {
    const c = await createClient(ws.owner);
    const res = await api(ws.mgrEdit, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: true, address: 'fine' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_active: true, address: 'fine' });
  });

  it('lets client editors edit an archived client', async () => {
    const c = await createClient(ws.owner, { is_active: false });
    const res = await api(ws.mgrEdit, 'PATCH', `/api/v2/clients/${c.id}`, { address: 'archived but edited' });
    expect(res.statusCode).toBe(200);
    expect(res.json().is_active).toBe(false);
  });
});

describe('DELETE /api/v2/clients/:id', () => {
  const del = (caller: Caller, id: string, etag?: string) =>
    api(caller, 'DELETE', `/api/v2/clients/${id}`, undefined, etag ? { 'if-match': etag } : {});

  it('deletes an archived client without projects, with its contacts (204), then 404', async () => {
    const created = await createClient(ws.owner);
    const archived = await api(ws.owner, 'PATCH', `/api/v2/clients/${created.id}`, { is_active: false });
    const contact = await api(ws.owner, 'POST', '/api/v2/contacts', { client_id: created.id, first_name: 'Ann' });
    expect(contact.statusCode).toBe(201);
    const storedContact = () =>
      ctx.db.selectFrom('contacts').select('client_id').where('company_id', '=', ws.companyId).where('id', '=', contact.json().id).executeTakeFirst();
    // The contact is stored, for this client, before the delete: its absence after it is the delete's doing.
    expect(await storedContact()).toEqual({ client_id: created.id });
    const res = await del(ws.admin, created.id, archived.headers.etag as string);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await getClient(ws.owner, created.id)).statusCode).toBe(404);
    expect(await storedClient(ws.companyId, created.id)).toBeUndefined();
    expect(await storedContact()).toBeUndefined();
    expect((await auditActions(ws.companyId, created.id)).map((e) => e.action)).toContain('client.deleted');
    expect((await del(ws.admin, created.id, '*')).statusCode).toBe(404);
  });

  it('requires If-Match: missing 428, stale 412, and nothing is deleted', async () => {
    const c = await createClient(ws.owner, { is_active: false });
    const missing = await del(ws.owner, c.id);
    expect(missing.statusCode).toBe(428);
    expect(missing.json().error).toBe('precondition_required');
    const stale = await del(ws.owner, c.id, '"stale"');
    expect(stale.statusCode).toBe(412);
    expect(await storedClient(ws.companyId, c.id)).toBeDefined();
    expect((await del(ws.owner, c.id, '*')).statusCode).toBe(204);
  });

  it('refuses an active client (409) and nothing is deleted', async () => {
    const c = await createClient(ws.owner);
    const res = await del(ws.owner, c.id, c.etag);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('conflict');
    expect(await storedClient(ws.companyId, c.id)).toBeDefined();
  });

  it('refuses a client with projects, even archived ones (409), and nothing is deleted', async () => {
    const c = await createClient(ws.owner, { is_active: false });
    const project = await insertProject(ws.companyId, c.id, { isActive: false });
    const res = await del(ws.owner, c.id, c.etag);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'conflict', project_count: 1 });
    expect(await storedClient(ws.companyId, c.id)).toBeDefined();
    await ctx.db.deleteFrom('projects').where('company_id', '=', ws.companyId).where('id', '=', project).execute();
    expect((await del(ws.owner, c.id, c.etag)).statusCode).toBe(204);
  });

  it.each(['mgrEdit', 'mgrPlain', 'mgrProjects', 'member', 'contractor', 'memberPersonal', 'adminPersonal'] as const)(
    '%s may not delete (403)',
    async (who) => {
      const c = await createClient(ws.owner, { is_active: false });
      const res = await del(ws[who], c.id, c.etag);
      expect(res.statusCode).toBe(403);
      expect(await storedClient(ws.companyId, c.id)).toBeDefined();
    },
  );
});

describe('other workspaces and malformed ids', () => {
  let foreign: { id: string; etag: string };
  beforeAll(async () => {
    foreign = await createClient(other.owner, { is_active: false });
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)('%s of another workspace\'s client is 404 and changes nothing', async (method) => {
    const body = method === 'PATCH' ? { address: 'x' } : undefined;
    const res = await api(ws.owner, method, `/api/v2/clients/${foreign.id}`, body, { 'if-match': '*' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    expect(await storedClient(other.companyId, foreign.id)).toMatchObject({ address: null });
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)('%s with a malformed or unknown id is 404', async (method) => {
    const body = method === 'PATCH' ? { address: 'x' } : undefined;
    for (const id of ['abc', '1', newId(), "x' or 1=1 --"]) {
      const res = await api(ws.owner, method, `/api/v2/clients/${encodeURIComponent(id)}`, body, { 'if-match': '*' });
      expect(res.statusCode, id).toBe(404);
    }
  });

  it("never lists another workspace's clients", async () => {
    const res = await api(ws.owner, 'GET', '/api/v2/clients?per_page=2000');
    expect(res.json().clients.map((c: { id: string }) => c.id)).not.toContain(foreign.id);
  });

  it('a key with another workspace in Service-Account-Id is 401', async () => {
    const res = await api(ws.owner, 'GET', `/api/v2/clients/${foreign.id}`, undefined, { 'service-account-id': other.companyId });
    expect(res.statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents the client routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
    const doc = res.json();
    expect(Object.keys(doc.paths['/api/v2/clients'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/v2/clients/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
  });
});
