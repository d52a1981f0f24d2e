import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { addMember, createTestContext, issueKey, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Contacts: listed for whoever sees their client, created by whoever may edit
 * clients; the same tenancy rules as clients. Projects and assignments are
 * inserted directly (the projects API is built separately).
 */

const CONTACT_FIELDS = [
  'id',
  'client',
  'first_name',
  'last_name',
  'title',
  'email',
  'phone_office',
  'phone_mobile',
  'fax',
  'created_at',
  'updated_at',
].sort();

interface Workspace {
  companyId: string;
  owner: Caller;
  admin: Caller;
  mgrEdit: Caller;
  mgrPlain: Caller;
  mgrProjects: Caller;
  member: Caller;
  contractor: Caller;
  memberPersonal: Caller;
  adminPersonal: Caller;
}

let ctx: TestContext;
let ws: Workspace;
let other: Workspace;
let counter = 0;

async function makeWorkspace(name: string): Promise<Workspace> {
  const db = ctx.db;
  const c = (await createWorkspace(db, { name })).id;
  const admin = await addMember(db, c, { role: 'administrator' });
  const member = await addMember(db, c, { role: 'member' });
  return {
    companyId: c,
    owner: await addMember(db, c, { role: 'owner' }),
    admin,
    mgrEdit: await addMember(db, c, { role: 'manager', permissions: ['edit_clients_and_tasks'] }),
    mgrPlain: await addMember(db, c, { role: 'manager' }),
    mgrProjects: await addMember(db, c, { role: 'manager', permissions: ['edit_projects'] }),
    member,
    contractor: await addMember(db, c, { role: 'member', isContractor: true }),
    memberPersonal: await issueKey(db, c, member.userId, member.email, 'personal'),
    adminPersonal: await issueKey(db, c, admin.userId, admin.email, 'personal'),
  };
}

const api = (caller: Caller | null, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });

async function newClient(w: Workspace, name = `Client ${++counter}`) {
  const res = await api(w.owner, 'POST', '/api/v2/clients', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}

async function newContact(w: Workspace, clientId: string, body: Record<string, unknown> = {}) {
  const res = await api(w.owner, 'POST', '/api/v2/contacts', { client_id: clientId, first_name: 'Ann', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function countContacts(companyId: string) {
  const row = await ctx.db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function assignToNewProject(w: Workspace, clientId: string, userId: string, isActive = true) {
  const projectId = newId();
  await ctx.db
    .insertInto('projects')
    .values({ company_id: w.companyId, id: projectId, client_id: clientId, name: `Project ${projectId}` })
    .execute();
  await ctx.db
    .insertInto('project_user_assignments')
    .values({ company_id: w.companyId, project_id: projectId, user_id: userId, is_active: isActive })
    .execute();
  return projectId;
}

beforeAll(async () => {
  ctx = await createTestContext();
  ws = await makeWorkspace('Acme');
  other = await makeWorkspace('Other');
});
afterAll(() => ctx?.close());

describe('POST /api/v2/contacts', () => {
  it('creates a contact tied to a client and returns every field', async () => {
    const client = await newClient(ws);
    const input = {
      client_id: client.id,
      first_name: 'Jane',
      last_name: 'Doe',
      title: 'CFO',
      email: 'jane@example.com',
      phone_office: '+1 555 0100',
      phone_mobile: '+1 555 0101',
      fax: '+1 555 0102',
    };
    const res = await api(ws.owner, 'POST', '/api/v2/contacts', input);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(CONTACT_FIELDS);
    const { client_id: _clientId, ...rest } = input;
    expect(body).toMatchObject({ ...rest, client: { id: client.id, name: client.name } });
    expect(body).not.toHaveProperty('company_id');
    expect(body).not.toHaveProperty('client_id');
    expect(body.created_at).toMatch(/Z$/);
  });

  it('fills optional fields with null (last_name with an empty string) and trims text', async () => {
    const client = await newClient(ws);
    const res = await api(ws.owner, 'POST', '/api/v2/contacts', { client_id: client.id, first_name: '  Bob  ', title: '  ' });
    expect(res.json()).toMatchObject({
      first_name: 'Bob',
      last_name: '',
      title: null,
      email: null,
      phone_office: null,
      phone_mobile: null,
      fax: null,
    });
  });

  it('allows contacts of archived clients', async () => {
    const client = await newClient(ws);
    await request(ctx.app, ws.owner, { method: 'PATCH', url: `/api/v2/clients/${client.id}`, payload: { is_active: false } });
    expect((await api(ws.mgrEdit, 'POST', '/api/v2/contacts', { client_id: client.id, first_name: 'Arch' })).statusCode).toBe(201);
  });

  it.each([
    ['owner', 201],
    ['admin', 201],
    ['mgrEdit', 201],
    ['mgrPlain', 403],
    ['mgrProjects', 403],
    ['member', 403],
    ['contractor', 403],
    ['memberPersonal', 403],
    ['adminPersonal', 403],
  ] as const)('%s gets %i', async (who, status) => {
    const client = await newClient(ws);
    // Visibility does not grant writing: the caller is assigned to a project of the client.
    await assignToNewProject(ws, client.id, ws[who].userId);
    const before = await countContacts(ws.companyId);
    const res = await api(ws[who], 'POST', '/api/v2/contacts', { client_id: client.id, first_name: 'Role' });
    expect(res.statusCode).toBe(status);
    expect(await countContacts(ws.companyId)).toBe(before + (status === 201 ? 1 : 0));
  });

  it('needs a credential', async () => {
    expect((await api(null, 'POST', '/api/v2/contacts', { client_id: newId(), first_name: 'X' })).statusCode).toBe(401);
  });

  it.each([
    ['missing client_id', { first_name: 'A' }, 'client_id'],
    ['malformed client_id', { client_id: 'abc', first_name: 'A' }, 'client_id'],
    ['unknown client_id', { client_id: newId(), first_name: 'A' }, 'client_id'],
    ['numeric client_id', { client_id: 5, first_name: 'A' }, 'client_id'],
    ['missing first_name', { client_id: 'CLIENT' }, 'first_name'],
    ['blank first_name', { client_id: 'CLIENT', first_name: '   ' }, 'first_name'],
    ['long first_name', { client_id: 'CLIENT', first_name: 'x'.repeat(256) }, 'first_name'],
    ['invalid email', { client_id: 'CLIENT', first_name: 'A', email: 'not-an-email' }, 'email'],
    ['email with spaces', { client_id: 'CLIENT', first_name: 'A', email: 'a b@example.com' }, 'email'],
    ['long phone', { client_id: 'CLIENT', first_name: 'A', phone_office: '1'.repeat(65) }, 'phone_office'],
    ['wrong-typed title', { client_id: 'CLIENT', first_name: 'A', title: 5 }, 'title'],
    ['unknown field', { client_id: 'CLIENT', first_name: 'A', twitter: '@a' }, 'twitter'],
    ['read-only id', { client_id: 'CLIENT', first_name: 'A', id: newId() }, 'id'],
    ['read-only client', { client_id: 'CLIENT', first_name: 'A', client: { id: 'x' } }, 'client'],
  ])('rejects %s with 400 naming the field, creating nothing', async (_label, body, field) => {
    const client = await newClient(ws);
    const payload = { ...body } as Record<string, unknown>;
    if (payload.client_id === 'CLIENT') payload.client_id = client.id;
    const before = await countContacts(ws.companyId);
    const res = await api(ws.owner, 'POST', '/api/v2/contacts', payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
    expect(await countContacts(ws.companyId)).toBe(before);
  });

  it("refuses another workspace's client as 400 naming client_id, creating nothing", async () => {
    const foreign = await newClient(other);
    const [theirs, ours] = [await countContacts(other.companyId), await countContacts(ws.companyId)];
    const res = await api(ws.owner, 'POST', '/api/v2/contacts', { client_id: foreign.id, first_name: 'Spy' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'client_id' });
    expect(await countContacts(other.companyId)).toBe(theirs);
    expect(await countContacts(ws.companyId)).toBe(ours);
  });

  it('writes an audit entry', async () => {
    const client = await newClient(ws);
    const contact = await newContact(ws, client.id);
    const entries = await ctx.db
      .selectFrom('audit_logs')
      .select(['action', 'actor_user_id'])
      .where('company_id', '=', ws.companyId)
      .where('subject_id', '=', contact.id)
      .execute();
    expect(entries).toEqual([{ action: 'contact.created', actor_user_id: ws.owner.userId }]);
  });

  it('replays an Idempotency-Key and creates one contact', async () => {
    const client = await newClient(ws);
    const key = `contact-${newId()}`;
    const body = { client_id: client.id, first_name: 'Idem' };
    const before = await countContacts(ws.companyId);
    const [a, b] = await Promise.all([
      api(ws.owner, 'POST', '/api/v2/contacts', body, { 'idempotency-key': key }),
      api(ws.owner, 'POST', '/api/v2/contacts', body, { 'idempotency-key': key }),
    ]);
    expect([a.statusCode, b.statusCode]).toContain(201);
    const replay = await api(ws.owner, 'POST', '/api/v2/contacts', body, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await countContacts(ws.companyId)).toBe(before + 1);
  });
});

describe('GET /api/v2/contacts', () => {
  let v: Workspace;
  let alpha: { id: string; name: string };
  let beta: { id: string; name: string };
  let gamma: { id: string; name: string };
  let foreignClient: { id: string; name: string };

  beforeAll(async () => {
    v = await makeWorkspace('Visibility');
    alpha = await newClient(v, 'Alpha');
    beta = await newClient(v, 'Beta');
    gamma = await newClient(v, 'Gamma');
    await newContact(v, alpha.id, { first_name: 'zoe', last_name: 'adams' });
    await newContact(v, alpha.id, { first_name: 'Amy', last_name: 'Adams' });
    await newContact(v, beta.id, { first_name: 'Carl', last_name: 'Brown' });
    await newContact(v, gamma.id, { first_name: 'Dora', last_name: 'Clark' });
    await assignToNewProject(v, alpha.id, v.member.userId);
    await assignToNewProject(v, beta.id, v.member.userId, false);
    await assignToNewProject(v, beta.id, v.contractor.userId);
    foreignClient = await newClient(other, 'Foreign');
    await newContact(other, foreignClient.id, { first_name: 'Eve' });
  });

  const firstNames = async (caller: Caller, query = '') => {
    const res = await api(caller, 'GET', `/api/v2/contacts${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().contacts as Array<{ first_name: string }>).map((c) => c.first_name);
  };

  it.each([
    ['owner', ['Amy', 'zoe', 'Carl', 'Dora']],
    ['admin', ['Amy', 'zoe', 'Carl', 'Dora']],
    ['mgrEdit', ['Amy', 'zoe', 'Carl', 'Dora']],
    ['mgrProjects', ['Amy', 'zoe', 'Carl', 'Dora']],
    ['mgrPlain', []],
    ['member', ['Amy', 'zoe']],
    ['contractor', ['Carl']],
  ] as const)('%s lists the contacts of the clients it sees: %j', async (who, expected) => {
    expect(await firstNames(v[who])).toEqual(expected);
  });

  it('is refused to personal sync keys (403), whoever owns them', async () => {
    for (const who of ['memberPersonal', 'adminPersonal'] as const) {
      const res = await api(v[who], 'GET', '/api/v2/contacts');
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });

  it('returns the contact with its client and the envelope', async () => {
    const res = await api(v.owner, 'GET', `/api/v2/contacts?client_id=${beta.id}`);
    expect(res.json()).toMatchObject({
      contacts: [{ first_name: 'Carl', last_name: 'Brown', client: { id: beta.id, name: 'Beta' } }],
      page: 1,
      per_page: 100,
      total_pages: 1,
      total_entries: 1,
      links: { previous: null, next: null },
    });
    expect(Object.keys(res.json().contacts[0]).sort()).toEqual(CONTACT_FIELDS);
  });

  it('filters by client_id, within what the caller sees', async () => {
    expect(await firstNames(v.owner, `?client_id=${alpha.id}`)).toEqual(['Amy', 'zoe']);
    expect(await firstNames(v.member, `?client_id=${beta.id}`)).toEqual([]);
    expect(await firstNames(v.owner, `?client_id=${foreignClient.id}`)).toEqual([]);
    expect(await firstNames(v.owner, `?client_id=${newId()}`)).toEqual([]);
  });

  it('filters by updated_since, counting a change of the client', async () => {
    const future = new Date('2032-01-01T00:00:00Z');
    await ctx.db.updateTable('contacts').set({ updated_at: future }).where('company_id', '=', v.companyId).where('first_name', '=', 'Dora').execute();
    expect(await firstNames(v.owner, '?updated_since=2031-12-31T00:00:00Z')).toEqual(['Dora']);
    await ctx.db.updateTable('clients').set({ updated_at: future }).where('company_id', '=', v.companyId).where('id', '=', beta.id).execute();
    expect(await firstNames(v.owner, '?updated_since=2031-12-31T00:00:00Z')).toEqual(['Carl', 'Dora']);
    const carl = (await api(v.owner, 'GET', `/api/v2/contacts?client_id=${beta.id}`)).json().contacts[0];
    expect(carl.updated_at).toBe(future.toISOString());
    expect(await firstNames(v.owner, '?updated_since=2032-01-01T00:00:01Z')).toEqual([]);
  });

  it('pages', async () => {
    const res = await api(v.owner, 'GET', '/api/v2/contacts?per_page=3&page=2');
    expect(res.json()).toMatchObject({ page: 2, per_page: 3, total_pages: 2, total_entries: 4 });
    expect(res.json().contacts.map((c: { first_name: string }) => c.first_name)).toEqual(['Dora']);
    expect(res.json().links).toMatchObject({ next: null, previous: '/api/v2/contacts?per_page=3&page=1' });
  });

  it("never lists another workspace's contacts", async () => {
    const res = await api(v.owner, 'GET', '/api/v2/contacts?per_page=2000');
    expect(res.json().contacts.map((c: { first_name: string }) => c.first_name)).not.toContain('Eve');
  });

  it.each([
    ['client_id=abc', 'client_id'],
    ['updated_since=soon', 'updated_since'],
    ['per_page=2001', 'per_page'],
    ['is_active=true', 'is_active'],
  ])('rejects the filter %s with 400', async (query, field) => {
    const res = await api(v.owner, 'GET', `/api/v2/contacts?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('needs a credential', async () => {
    expect((await api(null, 'GET', '/api/v2/contacts')).statusCode).toBe(401);
  });
});
