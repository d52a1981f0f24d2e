import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { EXCLUDED_TABLES, OMITTED_COLUMNS, RESOURCES, TABLE_USE } from '../src/modules/workspace/backup/resources.ts';
import { expressionFor } from '../src/modules/workspace/backup/render.ts';
import { addMember, createTestContext, issueKey, request, type Caller, type TestContext } from './helpers.ts';
import { SENTINELS, seedBackupWorkspace, type Seeded } from './fixtures/backup.ts';

/**
 * The workspace backup API: the manifest, every resource crawled through its
 * links, paging bounds, what is never exported, who may export, and isolation
 * between workspaces.
 */

const SPEC_RESOURCES = [
  'workspace', 'members', 'roles', 'teammate_assignments', 'clients', 'projects', 'tasks', 'time_entries',
  'expense_categories', 'expenses', 'invoice_settings', 'bank_accounts', 'invoice_item_categories', 'invoices',
  'estimates', 'retainers', 'recurring_invoices', 'planning_assignments', 'planning_placeholders', 'planning_time_off',
  'planning_working_patterns', 'saved_reports', 'invitations', 'webhook_endpoints', 'audit_logs',
];

/** Each table-backed resource's parent table (counts are compared with it). */
const PARENT_TABLE: Record<string, string> = {
  members: 'memberships',
  teammate_assignments: 'teammate_assignments',
  clients: 'clients',
  projects: 'projects',
  tasks: 'tasks',
  time_entries: 'time_entries',
  expense_categories: 'expense_categories',
  expenses: 'expenses',
  invoice_item_categories: 'invoice_item_categories',
  invoices: 'invoices',
  invitations: 'invitations',
  audit_logs: 'audit_logs',
  retainers: 'retainers',
};

/** Keys that would mean a secret or an internal record leaked. */
const FORBIDDEN_KEYS = [
  'secret', 'secret_hash', 'token', 'password', 'prefix', 'family_id', 'api_key', 'session', 'data', 'payload',
  'outbox_id', 'response_body', 'response_headers', 'request_hash', 'permission_hash', 'credential_key',
  'attempts', 'last_error', 'storage_key', 'signing_secret', 'company_id', 'token_hash',
];

interface Ws {
  companyId: string;
  owner: Caller;
  admin: Caller;
  manager: Caller;
  member: Caller;
  contractor: Caller;
  client: Caller;
  memberPersonal: Caller;
  adminPersonal: Caller;
  seeded: Seeded;
}

let ctx: TestContext;
let a: Ws;
let b: Ws;

async function makeWorkspace(name: string, timeEntries: number): Promise<Ws> {
  const company = await createWorkspace(ctx.db, { name });
  const c = company.id;
  const owner = await addMember(ctx.db, c, { role: 'owner' });
  const admin = await addMember(ctx.db, c, { role: 'administrator' });
  const manager = await addMember(ctx.db, c, {
    role: 'manager',
    permissions: ['edit_projects', 'edit_clients_and_tasks', 'view_billable_rates', 'view_invoices', 'approve_managed_projects', 'view_internal_costs'],
  });
  const member = await addMember(ctx.db, c, { role: 'member' });
  const contractor = await addMember(ctx.db, c, { role: 'member', isContractor: true });
  const client = await addMember(ctx.db, c, { role: 'member' });
  await ctx.db.updateTable('memberships').set({ role: 'client' }).where('company_id', '=', c).where('user_id', '=', client.userId).execute();
  const seeded = await seedBackupWorkspace(ctx.db, c, { ownerId: owner.userId, managerId: manager.userId, memberId: member.userId }, { timeEntries });
  return {
    companyId: c,
    owner,
    admin,
    manager,
    member,
    contractor,
    client,
    memberPersonal: await issueKey(ctx.db, c, member.userId, member.email, 'personal'),
    adminPersonal: await issueKey(ctx.db, c, admin.userId, admin.email, 'personal'),
    seeded,
  };
}

const get = (caller: Caller | null, url: string) => request(ctx.app, caller, { method: 'GET', url });

/** Follows links.next from the first page; returns every record and the pages seen. */
async function crawl(caller: Caller, name: string, perPage?: number) {
  let url: string | null = `/api/v2/backup/${name}${perPage ? `?per_page=${perPage}` : ''}`;
  const records: any[] = [];
  const pages: any[] = [];
  while (url) {
    const res = await get(caller, url);
    expect(res.statusCode, url).toBe(200);
    const body = res.json();
    pages.push(body);
    records.push(...body.records);
    url = body.links.next;
    expect(pages.length).toBeLessThan(1000);
  }
  return { records, pages };
}

async function exportAll(caller: Caller, perPage?: number) {
  const out: Record<string, any[]> = {};
  for (const name of SPEC_RESOURCES) out[name] = (await crawl(caller, name, perPage)).records;
  return out;
}

async function tableCount(table: string, companyId: string) {
  const column = table === 'companies' ? 'id' : 'company_id';
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${companyId}`.execute(ctx.db);
  return Number(rows[0].n);
}

beforeAll(async () => {
  ctx = await createTestContext();
  a = await makeWorkspace('Alpha', 23);
  b = await makeWorkspace('Beta', 4);
});
afterAll(() => ctx.close());

describe('manifest', () => {
  it('lists every resource of schema version 1 in the spec order with correct counts', async () => {
    const res = await get(a.owner, '/api/v2/backup');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const m = res.json();
    expect(m.backup_schema_version).toBe(1);
    expect(new Date(m.generated_at).toISOString()).toBe(m.generated_at);
    expect(m.workspace).toEqual({ id: a.companyId, name: 'Alpha' });
    expect(m.resources.map((r: { name: string }) => r.name)).toEqual(SPEC_RESOURCES);
    for (const r of m.resources) {
      expect(Object.keys(r).sort()).toEqual(['description', 'endpoint', 'name', 'total_entries']);
      expect(r.endpoint).toBe(`/api/v2/backup/${r.name}`);
      expect(r.description.length).toBeGreaterThan(5);
      const table = PARENT_TABLE[r.name];
      const expected = r.name === 'workspace' ? 1 : table ? await tableCount(table, a.companyId) : 0;
      expect(r.total_entries, r.name).toBe(expected);
    }
    const count = (name: string) => m.resources.find((r: { name: string }) => r.name === name).total_entries;
    expect(count('time_entries')).toBe(23);
    expect(count('expenses')).toBe(4);
    expect(count('invoices')).toBe(2);
    expect(count('clients')).toBe(3);
    expect(count('members')).toBe(6);
    expect(m.excluded.join(' ')).toMatch(/credentials/);
    expect(m.excluded.join(' ')).toMatch(/webhook signing secrets/);
    // Every resource without a table says so in the notes.
    for (const r of RESOURCES.filter((x) => x.kind === 'empty')) {
      expect(m.notes.some((n: string) => n.startsWith(`${r.name}:`)), r.name).toBe(true);
    }
  });

  it('counts agree with a full crawl of every resource, at several page sizes', async () => {
    const m = (await get(a.owner, '/api/v2/backup')).json();
    for (const perPage of [undefined, 1, 7, 500]) {
      const all = await exportAll(a.owner, perPage);
      for (const r of m.resources) {
        expect(all[r.name].length, `${r.name} per_page=${perPage}`).toBe(r.total_entries);
      }
    }
  });
});

describe('resource pages', () => {
  it('carry the envelope, stable keyset order and working links', async () => {
    const { records, pages } = await crawl(a.owner, 'time_entries', 5);
    expect(pages.length).toBe(5);
    expect(records.length).toBe(23);
    const ids = records.map((r) => r.id);
    expect(new Set(ids).size).toBe(23);
    expect([...ids].sort()).toEqual(ids);
    const first = pages[0];
    expect(Object.keys(first).sort()).toEqual(['backup_schema_version', 'links', 'page', 'per_page', 'records', 'resource', 'total_entries', 'total_pages']);
    expect(first).toMatchObject({ backup_schema_version: 1, resource: 'time_entries', page: 1, per_page: 5, total_pages: 5, total_entries: 23 });
    expect(first.links.first).toBe('/api/v2/backup/time_entries?page=1&per_page=5');
    expect(first.links.last).toBe('/api/v2/backup/time_entries?page=5&per_page=5');
    expect(first.links.previous).toBeNull();
    expect(first.links.next).toMatch(/^\/api\/v2\/backup\/time_entries\?page=2&per_page=5&after=/);
    expect(pages[4].links.next).toBeNull();
    expect(pages[4].page).toBe(5);
    expect(pages[4].links.previous).toBe('/api/v2/backup/time_entries?page=4&per_page=5');
    // Offset pages (first, previous, last links) give the same records as the keyset crawl.
    const third = (await get(a.owner, '/api/v2/backup/time_entries?page=3&per_page=5')).json();
    expect(third.records).toEqual(pages[2].records);
    const last = (await get(a.owner, pages[0].links.last)).json();
    expect(last.records).toEqual(pages[4].records);
    // Past the end: an empty page, no next.
    const past = (await get(a.owner, '/api/v2/backup/time_entries?page=9&per_page=5')).json();
    expect(past).toMatchObject({ records: [], page: 9, total_pages: 5, links: { next: null, previous: '/api/v2/backup/time_entries?page=5&per_page=5' } });
  });

  it('never skips or repeats a record that exists throughout a crawl, whatever is deleted or added meanwhile', async () => {
    // Audit log records (no foreign keys) of workspace B.
    const c = b.companyId;
    const extra = async () => {
      const id = newId();
      await ctx.db.insertInto('audit_logs').values({ company_id: c, id, action: 'test.crawl', subject_type: 'test' }).execute();
      return id;
    };
    for (let i = 0; i < 6; i++) await extra();
    const before = (await crawl(b.owner, 'audit_logs', 3)).records.map((r) => r.id);
    const page1 = (await get(b.owner, '/api/v2/backup/audit_logs?per_page=3')).json();
    // Delete two records of the first page and add one at the end before following next.
    const gone = page1.records.slice(0, 2).map((r: { id: string }) => r.id);
    await ctx.db.deleteFrom('audit_logs').where('company_id', '=', c).where('id', 'in', gone).execute();
    const added = await extra();
    const seen = [...page1.records.map((r: { id: string }) => r.id)];
    let url = page1.links.next;
    while (url) {
      const body = (await get(b.owner, url)).json();
      seen.push(...body.records.map((r: { id: string }) => r.id));
      url = body.links.next;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    expect(seen).toContain(added);
  });

  it('render records with snake_case keys, ISO dates and timestamps, decimals as strings and nested arrays', async () => {
    const all = await exportAll(a.owner, 100);
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (!path.includes('metadata') && !path.includes('external_reference') && !path.includes('details') && !path.includes('recipients')) {
            expect(k, path).toMatch(/^[a-z][a-z0-9_]*$/);
          }
          if (/_at$/.test(k) && v !== null) expect(v, `${path}.${k}`).toMatch(iso);
          walk(v, `${path}.${k}`);
        }
      }
    };
    for (const [name, records] of Object.entries(all)) walk(records, name);

    const [workspace] = all.workspace;
    expect(workspace).toMatchObject({ id: a.companyId, name: 'Alpha', currency: 'USD', rounding_minutes: 15 });

    const member = all.members.find((m) => m.id === a.member.userId);
    expect(member).toMatchObject({ email: a.member.email, role: 'member', permissions: [], is_active: true });
    expect(member.rates.map((r: any) => [r.kind, r.hourly_rate, r.effective_from]).sort()).toEqual([
      ['billable', '95.00', '2026-01-01'],
      ['cost', '40.50', '2026-01-01'],
    ]);
    const manager = all.members.find((m) => m.id === a.manager.userId);
    expect(manager.permissions.length).toBe(6);
    expect(all.members.find((m) => m.id === a.client.userId).role).toBe('client');
    expect(all.teammate_assignments).toEqual([{ manager_id: a.manager.userId, teammate_id: a.member.userId, created_at: expect.stringMatching(iso) }]);

    const client = all.clients.find((x) => x.id === a.seeded.clientIds[0]);
    expect(client.tax).toBe('19.0000');
    expect(client.contacts.map((x: any) => x.first_name).sort()).toEqual(['Carla', 'Chen']);

    const project = all.projects.find((x) => x.id === a.seeded.projectIds[0]);
    expect(project).toMatchObject({ fee: '1000.00', is_fixed_fee: true, starts_on: '2026-01-01' });
    expect(project.user_assignments.length).toBe(2);
    expect(project.task_assignments.map((t: any) => t.budget)).toEqual(['12.50', '12.50']);
    expect(project.rates.map((r: any) => r.hourly_rate).sort()).toEqual(['100.00', '110.00', '120.00']);

    // Every rate row of the workspace is exported exactly once.
    const rateIds = [...all.members.flatMap((m) => m.rates), ...all.projects.flatMap((p) => p.rates)].map((r: any) => r.id);
    expect(new Set(rateIds).size).toBe(rateIds.length);
    expect(rateIds.length).toBe(await tableCount('rates', a.companyId));

    expect(all.tasks.find((t) => t.id === a.seeded.taskIds[0]).default_hourly_rate).toBe('80.00');
    const entry = all.time_entries.find((t) => t.metadata);
    expect(entry).toMatchObject({ metadata: { ticket: 'T-1' }, billable_rate: '100.00', hours_entered: '0.500000', spent_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(all.time_entries.find((t) => t.external_reference).external_reference).toEqual({ id: 'EXT-1', service: 'example.com' });
    expect(all.expense_categories.some((x) => x.name === 'LLM usage')).toBe(true);

    const [billed1, , unbilled, without] = a.seeded.expenseIds.map((id) => all.expenses.find((e) => e.id === id));
    expect(billed1).toMatchObject({ total_cost: '42.10', is_billed: true, invoice_id: a.seeded.invoiceIds[0], receipt_download_url: `/api/v2/expenses/${billed1.id}/receipt` });
    expect(billed1.receipt).toMatchObject({ file_name: 'taxi ü.png', content_type: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(unbilled.receipt.file_name).toBe('hotel.png');
    expect(without).toMatchObject({ receipt: null, receipt_download_url: null, receipt_file_id: null });

    const invoice = all.invoices.find((i) => i.id === a.seeded.invoiceIds[0]);
    expect(invoice).toMatchObject({ number: '1001', state: 'open', issue_date: '2026-03-31', tax: '19.0000', sent_at: '2026-03-31T10:00:00.000Z', attachments: [] });
    expect(invoice.line_items.map((l: any) => [l.description, l.quantity, l.unit_price])).toEqual([
      ['Design', '10.000000', '100.0000'],
      ['Licence', '1.000000', '50.0000'],
    ]);
    expect(invoice.payments).toEqual([expect.objectContaining({ amount: '500.00', paid_date: '2026-04-02' })]);
    expect(invoice.messages).toEqual([expect.objectContaining({ event_type: 'send', recipients: [{ email: 'carla@example.com' }] })]);
    // The receipt shared by two billed expenses is one copy, with its link.
    expect(invoice.expense_receipts).toEqual([
      expect.objectContaining({ id: a.seeded.invoiceReceiptFileIds[0], file_name: 'taxi ü.png', download_url: `/api/v2/backup/files/invoice_expense_receipts/${a.seeded.invoiceReceiptFileIds[0]}` }),
    ]);
    const empty = all.invoices.find((i) => i.id === a.seeded.invoiceIds[1]);
    expect(empty).toMatchObject({ line_items: [], payments: [], messages: [], attachments: [], expense_receipts: [] });
    expect(all.audit_logs.some((l) => l.action === 'client.created' && l.details.name === 'x')).toBe(true);
  });

  it('refuses bad paging and unknown names: 400 and 404 in the error shape', async () => {
    for (const query of ['per_page=0', 'per_page=501', 'per_page=1.5', 'per_page=abc', 'per_page=', 'page=0', 'page=1.5', 'page=-1', 'page=x', 'foo=1', 'after=nonsense', `after=${newId()}.${newId()}`]) {
      const res = await get(a.owner, `/api/v2/backup/clients?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.stringMatching(/invalid_request|unknown_field/), error_description: expect.any(String), message: expect.any(String) });
    }
    expect((await get(a.owner, '/api/v2/backup/teammate_assignments?after=x.y')).statusCode).toBe(400);
    expect((await get(a.owner, `/api/v2/backup/roles?after=${newId()}`)).statusCode).toBe(400);
    expect((await get(a.owner, '/api/v2/backup?page=1')).statusCode).toBe(400);
    expect((await get(a.owner, '/api/v2/backup/clients?per_page=500')).statusCode).toBe(200);
    expect((await get(a.owner, '/api/v2/backup/clients?per_page=1&page=1000000')).statusCode).toBe(200);
    for (const name of ['credentials', 'outbox', 'files', 'nope', 'Clients']) {
      const res = await get(a.owner, `/api/v2/backup/${name}`);
      expect(res.statusCode, name).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });

  it('lists empty resources as one empty page', async () => {
    const body = (await get(a.owner, '/api/v2/backup/roles')).json();
    expect(body).toMatchObject({ resource: 'roles', records: [], total_entries: 0, total_pages: 1, page: 1, per_page: 100, links: { next: null, previous: null } });
  });
});

describe('exclusions', () => {
  it('never exports credentials, key hashes, queues, idempotency records or file bytes', async () => {
    const all = await exportAll(a.owner, 500);
    const text = JSON.stringify(all);
    const keys = await ctx.db.selectFrom('credentials').select(['secret_hash', 'prefix', 'id']).where('company_id', '=', a.companyId).execute();
    expect(keys.length).toBeGreaterThan(5);
    for (const k of keys) {
      expect(text).not.toContain(k.secret_hash.toString('hex'));
      expect(text).not.toContain(k.secret_hash.toString('base64'));
    }
    for (const caller of [a.owner, a.admin, a.member, a.memberPersonal, a.adminPersonal]) expect(text).not.toContain(caller.key);
    expect(text).not.toMatch(/sheaf_(fa|ps)_/);
    for (const s of Object.values(SENTINELS)) expect(text).not.toContain(s);
    const forbidden = (value: unknown, path: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => forbidden(v, `${path}[${i}]`));
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          expect(FORBIDDEN_KEYS, `${path}.${k}`).not.toContain(k);
          forbidden(v, `${path}.${k}`);
        }
      }
    };
    forbidden(all, 'export');
  });

  it('exports the invitations, never their tokens', async () => {
    const { records } = await crawl(a.owner, 'invitations', 1);
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.email).sort()).toEqual(['invited@example.com', 'joined@example.com']);
    expect(records.find((r) => r.email === 'invited@example.com')).toMatchObject({
      role: 'manager',
      permissions: ['view_invoices'],
      is_contractor: false,
      invited_by: a.owner.userId,
      accepted_at: null,
      accepted_user_id: null,
      revoked_at: null,
    });
    expect(records.find((r) => r.email === 'joined@example.com')).toMatchObject({ accepted_user_id: a.member.userId });
    const text = JSON.stringify(records);
    const hashes = await ctx.db.selectFrom('invitations').select('token_hash').where('company_id', '=', a.companyId).execute();
    for (const { token_hash } of hashes) {
      expect(text).not.toContain(token_hash.toString('hex'));
      expect(text).not.toContain(token_hash.toString('base64'));
    }
  });

  it('reads every table or excludes it with a reason, and every column of a read table or omits it', async () => {
    const { rows: tables } = await sql<{ table_name: string }>`select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(ctx.db);
    for (const { table_name } of tables) {
      expect(Boolean(TABLE_USE[table_name]) !== Boolean(EXCLUDED_TABLES[table_name]), `table ${table_name} is neither exported nor excluded`).toBe(true);
    }
    // Which table.column each resource reads, from its FROM aliases and column lists.
    const read = new Set<string>();
    const specs = RESOURCES.flatMap((r) => (r.kind === 'table' ? [r, ...(r.children ?? [])] : []));
    for (const spec of specs) {
      const aliases = new Map<string, string>();
      for (const m of spec.from.matchAll(/(?:^|join\s+)(\w+)\s+(\w+)/g)) aliases.set(m[2], m[1]);
      const keys = 'key' in spec ? spec.key.map((k) => k.column).join(' ') : '';
      for (const m of `${spec.columns} ${keys}`.matchAll(/\b([a-z])\.([a-z0-9_]+)/g)) read.add(`${aliases.get(m[1])}.${m[2]}`);
    }
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`select table_name, column_name
      from information_schema.columns where table_schema = current_schema()`.execute(ctx.db);
    for (const { table_name, column_name } of columns) {
      if (!TABLE_USE[table_name] || column_name === 'company_id') continue;
      const omitted = OMITTED_COLUMNS[table_name]?.[column_name];
      expect(read.has(`${table_name}.${column_name}`) || Boolean(omitted), `${table_name}.${column_name} is neither exported nor omitted`).toBe(true);
    }
  });
});

describe('who may export', () => {
  const routes = () => [
    '/api/v2/backup',
    '/api/v2/backup/clients',
    '/api/v2/backup/roles',
    `/api/v2/backup/files/invoice_expense_receipts/${a.seeded.invoiceReceiptFileIds[0]}`,
  ];

  it('owners and administrators: 200', async () => {
    for (const caller of [a.owner, a.admin]) for (const url of routes()) expect((await get(caller, url)).statusCode, url).toBe(200);
  });

  it('managers (every flag), members, contractors, client memberships and personal sync keys (even an administrator\'s): 403', async () => {
    for (const caller of [a.manager, a.member, a.contractor, a.client, a.memberPersonal, a.adminPersonal]) {
      for (const url of routes()) {
        const res = await get(caller, url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
    }
  });

  it('no key: 401', async () => {
    for (const url of routes()) expect((await get(null, url)).statusCode, url).toBe(401);
  });
});

describe('files and isolation', () => {
  it('serves an invoice receipt copy and the expense receipt link as raw bytes with their content type', async () => {
    const fileId = a.seeded.invoiceReceiptFileIds[0];
    const res = await get(a.owner, `/api/v2/backup/files/invoice_expense_receipts/${fileId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''taxi%20%C3%BC.png");
    expect(res.rawPayload.equals(a.seeded.fileBytes.get(fileId)!)).toBe(true);
    const expense = await get(a.admin, `/api/v2/expenses/${a.seeded.expenseIds[0]}/receipt`);
    expect(expense.statusCode).toBe(200);
    expect(expense.rawPayload.equals(a.seeded.fileBytes.get(fileId)!)).toBe(true);
  });

  it('gives 404 for another workspace\'s file, a receipt no invoice carries, unknown and malformed ids', async () => {
    for (const id of [b.seeded.invoiceReceiptFileIds[0], a.seeded.unbilledReceiptFileId, newId(), 'not-an-id']) {
      const res = await get(a.owner, `/api/v2/backup/files/invoice_expense_receipts/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    // B's own owner gets B's file.
    expect((await get(b.owner, `/api/v2/backup/files/invoice_expense_receipts/${b.seeded.invoiceReceiptFileIds[0]}`)).statusCode).toBe(200);
  });

  it("never exports another workspace's records", async () => {
    const text = JSON.stringify(await exportAll(a.owner, 500));
    const foreign = [
      b.companyId, b.owner.userId, b.admin.userId, b.member.userId,
      ...b.seeded.clientIds, ...b.seeded.projectIds, ...b.seeded.taskIds, ...b.seeded.invoiceIds, ...b.seeded.expenseIds,
      ...b.seeded.invoiceReceiptFileIds,
    ];
    for (const id of foreign) expect(text).not.toContain(id);
    const { rows } = await sql<{ id: string }>`select id from time_entries where company_id = ${b.companyId}`.execute(ctx.db);
    for (const { id } of rows) expect(text).not.toContain(id);
    const m = (await get(b.owner, '/api/v2/backup')).json();
    expect(m.workspace.id).toBe(b.companyId);
    expect(m.resources.find((r: { name: string }) => r.name === 'time_entries').total_entries).toBe(4);
  });
});

describe('rendering (records are rendered as JSON by the database)', () => {
  let g: Ws;
  const NOTES = 'q"uo\\te\n\t\u0001\u001f\u007f é 😀 \u2028 </script>';

  beforeAll(async () => {
    g = await makeWorkspace('Gamma "ü"', 2);
    const c = g.companyId;
    const id = newId();
    await ctx.db
      .insertInto('time_entries')
      .values({
        company_id: c, id, user_id: g.member.userId, project_id: g.seeded.projectIds[0], task_id: g.seeded.taskIds[0], spent_date: '2026-03-01',
        duration_seconds: 60, notes: NOTES, billable: true, billable_rate: '1e3', source: 'api',
      })
      .execute();
    // jsonb as PostgreSQL prints it has spaces and keeps number forms (1.50, 1E2); timestamps have microseconds.
    await sql`update time_entries set metadata = ${'{"n": 1.50, "k": 1E2, "big": 12345678901234567890, "s": "x\\"\\\\\\n\\u0001😀", "nested": [1, {"a": null}], "empty": {}}'}::jsonb,
        created_at = '2026-01-01 10:00:00.123999+00', updated_at = '1999-12-31 23:59:59.999999+00'
      where company_id = ${c} and id = ${id}`.execute(ctx.db);
    await ctx.db.insertInto('audit_logs').values({ company_id: c, id: newId(), action: 'test.infinity', subject_type: 'test' }).execute();
    await sql`update audit_logs set occurred_at = 'infinity' where company_id = ${c} and action = 'test.infinity'`.execute(ctx.db);
  });

  it('sends every page as compact JSON, byte for byte what JSON.stringify gives for its value', async () => {
    for (const name of SPEC_RESOURCES) {
      for (const perPage of [1, 500]) {
        let url: string | null = `/api/v2/backup/${name}?per_page=${perPage}`;
        while (url) {
          const res = await get(g.owner, url);
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(res.headers['cache-control']).toBe('private, no-store');
          expect(res.body, url).toBe(JSON.stringify(res.json()));
          url = res.json().links.next;
        }
      }
    }
  });

  it('renders text, jsonb, numerics and timestamps as the JavaScript rendering did', async () => {
    const { records } = await crawl(g.owner, 'time_entries', 500);
    const entry = records.find((t) => t.notes === NOTES);
    expect(entry).toMatchObject({
      billable_rate: '1000.00',
      duration_seconds: 60,
      spent_date: '2026-03-01',
      created_at: '2026-01-01T10:00:00.123Z',
      updated_at: '1999-12-31T23:59:59.999Z',
      metadata: { n: 1.5, k: 100, big: 12345678901234567000, s: 'x"\\\n\u0001😀', nested: [1, { a: null }], empty: {} },
    });
    const page = (await get(g.owner, '/api/v2/backup/time_entries?per_page=500')).body;
    expect(page).toContain(String.raw`"metadata":{"k":100,"n":1.5,"s":"x\"\\\n\u0001😀","big":12345678901234567000,"empty":{},"nested":[1,{"a":null}]}`);
    const logs = (await crawl(g.owner, 'audit_logs', 500)).records;
    expect(logs.find((l) => l.action === 'test.infinity').occurred_at).toBeNull();
    const [workspace] = (await crawl(g.owner, 'workspace')).records;
    expect(workspace.name).toBe('Gamma "ü"');
  });

  it('refuses binary columns and types without a known JSON form', () => {
    expect(() => expressionFor('data', 'bytea', false)).toThrow(/binary column data must not be exported/);
    expect(() => expressionFor('span', 'interval', false)).toThrow(/type interval/);
    expect(expressionFor('state', 'invoice_state', true).expression).toBe('s."state"');
  });
});
