import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Bank accounts (issue 25 item 2), `/web/api/bank_accounts`: owners and
 * administrators add, change, make default and delete the accounts invoices print;
 * IBAN and BIC checked by ibantools, the currency by ISO 4217; one default per
 * currency, also under parallel requests; another workspace's ids are 404; bad
 * input is a 400 naming the field and writes nothing; the backup exports the
 * display details.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'member', Caller> = {} as never;
let foreign: { session: Caller; accountId: string };

const IBAN_DE = 'DE89370400440532013000';
const IBAN_NL = 'NL91ABNA0417164300';
const IBAN_GB = 'GB82WEST12345698765432';

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  for (const who of ['owner', 'admin', 'mgrInvoices', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  const other = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
  const session = await sessionFor(ctx.db, other.owner, ctx.clock.now());
  const res = await request(ctx.app, session, { method: 'POST', url: '/web/api/bank_accounts', payload: { currency: 'EUR', holder: 'Elsewhere Ltd', iban: IBAN_NL } });
  expect(res.statusCode, res.body).toBe(201);
  foreign = { session, accountId: res.json().id };
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = (caller: Caller, method: Method, url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
const add = (body: Record<string, unknown>, caller = s.admin) => api(caller, 'POST', '/web/api/bank_accounts', body);
const patch = (id: string, body: Record<string, unknown>, caller = s.admin) => api(caller, 'PATCH', `/web/api/bank_accounts/${id}`, body);
const remove = (id: string, caller = s.admin) => api(caller, 'DELETE', `/web/api/bank_accounts/${id}`);

/** The workspace's stored accounts, as the database holds them. */
const stored = (companyId = w.companyId) =>
  ctx.db.selectFrom('bank_accounts').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute();
const defaultsOf = async (currency: string) => (await stored()).filter((r) => r.currency === currency && r.is_default).map((r) => r.id);

async function created(body: Record<string, unknown>) {
  const res = await add(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Removes every account of the workspace (each test starts from none). */
async function clean() {
  await ctx.db.deleteFrom('bank_accounts').where('company_id', '=', w.companyId).execute();
}

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ error, ...(field ? { field } : {}) });
  expect(body.message).toBe(body.error_description);
}

describe('creating bank accounts', () => {
  it('stores the IBAN in electronic format and the BIC upper case; the first of a currency is its default', async () => {
    await clean();
    const first = await created({ currency: 'eur', holder: '  Acme   Studio GmbH ', iban: 'de89 3704 0044 0532 0130 00', bic: 'cobadeff xxx', bank_name: 'Commerzbank' });
    expect(first).toMatchObject({ currency: 'EUR', holder: 'Acme Studio GmbH', iban: IBAN_DE, bic: 'COBADEFFXXX', bank_name: 'Commerzbank', local_account: null, is_default: true });
    const second = await created({ currency: 'EUR', holder: 'Acme Studio GmbH', iban: IBAN_NL });
    expect(second.is_default).toBe(false);
    const pounds = await created({ currency: 'GBP', holder: 'Acme Studio Ltd', local_account: 'Sort code 12-34-56\nAccount 12345678' });
    expect(pounds).toMatchObject({ iban: null, local_account: 'Sort code 12-34-56\nAccount 12345678', is_default: true });

    const list = await api(s.owner, 'GET', '/web/api/bank_accounts');
    expect(list.statusCode, list.body).toBe(200);
    // By currency, the default first.
    expect(list.json().bank_accounts.map((a: { id: string }) => a.id)).toEqual([first.id, second.id, pounds.id]);
    const one = await api(s.owner, 'GET', `/web/api/bank_accounts/${second.id}`);
    expect(one.json()).toEqual(second);
  });

  it('accepts both an IBAN and a local account, and is_default false for a first account', async () => {
    await clean();
    const both = await created({ currency: 'GBP', holder: 'Acme Ltd', iban: IBAN_GB, local_account: 'Sort code 60-16-13', is_default: false });
    expect(both).toMatchObject({ iban: IBAN_GB, local_account: 'Sort code 60-16-13', is_default: false });
  });

  it('records who added it in the audit log', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'Acme', iban: IBAN_DE });
    const entry = await ctx.db.selectFrom('audit_logs').select(['action', 'actor_user_id']).where('subject_id', '=', a.id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ action: 'bank_account.created', actor_user_id: w.admin.userId });
  });
});

describe('bad input: a 400 naming the field, nothing written', () => {
  const cases: Array<[string, Record<string, unknown>, string, string?]> = [
    ['a wrong IBAN check digit', { currency: 'EUR', holder: 'Acme', iban: 'DE89370400440532013001' }, 'iban'],
    ['an IBAN of the wrong length for its country', { currency: 'EUR', holder: 'Acme', iban: 'DE8937040044053201300' }, 'iban'],
    ['an IBAN of no country', { currency: 'EUR', holder: 'Acme', iban: 'XX89370400440532013000' }, 'iban'],
    ['an IBAN that is not text', { currency: 'EUR', holder: 'Acme', iban: 89370400 }, 'iban'],
    ['a BIC of the wrong shape', { currency: 'EUR', holder: 'Acme', iban: IBAN_DE, bic: 'COBA1' }, 'bic'],
    ['a BIC of no country', { currency: 'EUR', holder: 'Acme', iban: IBAN_DE, bic: 'COBAXXFF' }, 'bic'],
    ['an unknown currency', { currency: 'XYZ', holder: 'Acme', iban: IBAN_DE }, 'currency'],
    ['a currency of four letters', { currency: 'EURO', holder: 'Acme', iban: IBAN_DE }, 'currency'],
    ['no currency', { holder: 'Acme', iban: IBAN_DE }, 'currency'],
    ['a blank holder', { currency: 'EUR', holder: '   ', iban: IBAN_DE }, 'holder'],
    ['a holder longer than 70 characters', { currency: 'EUR', holder: 'x'.repeat(71), iban: IBAN_DE }, 'holder'],
    ['neither an IBAN nor a local account', { currency: 'EUR', holder: 'Acme' }, 'iban'],
    ['a blank local account alone', { currency: 'GBP', holder: 'Acme', local_account: '  ' }, 'local_account'],
    ['an oversize local account', { currency: 'GBP', holder: 'Acme', local_account: 'x'.repeat(501) }, 'local_account'],
    ['an oversize bank name', { currency: 'EUR', holder: 'Acme', iban: IBAN_DE, bank_name: 'x'.repeat(141) }, 'bank_name'],
    ['a NUL in the holder', { currency: 'EUR', holder: 'Ac\u0000me', iban: IBAN_DE }, 'holder'],
    ['an unknown property', { currency: 'EUR', holder: 'Acme', iban: IBAN_DE, account_number: '1' }, 'account_number', 'unknown_field'],
    ['a read-only property', { currency: 'EUR', holder: 'Acme', iban: IBAN_DE, id: newId() }, 'id', 'unknown_field'],
    ['is_default that is not a boolean', { currency: 'EUR', holder: 'Acme', iban: IBAN_DE, is_default: 'yes' }, 'is_default'],
  ];
  it.each(cases)('%s', async (_name, body, field, code = 'invalid_request') => {
    await clean();
    const res = await add(body);
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json();
    expect(error.field).toBe(field);
    expect(error.error).toBe(code);
    expect(await stored()).toEqual([]);
  });

  it('names what is wrong with an IBAN', async () => {
    const res = await add({ currency: 'EUR', holder: 'Acme', iban: 'DE89370400440532013001' });
    expect(res.json().message).toMatch(/^iban has wrong check digits/);
  });

  it('a PATCH that would leave no IBAN nor local account, or sets a bad IBAN, changes nothing', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'Acme', iban: IBAN_DE });
    const before = await stored();
    expectError(await patch(a.id, { iban: null }), 400, 'invalid_request', 'iban');
    expectError(await patch(a.id, { holder: 'New name', iban: 'DE00370400440532013000' }), 400, 'invalid_request', 'iban');
    expectError(await patch(a.id, {}), 400, 'invalid_request');
    expectError(await patch(a.id, { created_at: '2020-01-01T00:00:00Z' }), 400, 'unknown_field', 'created_at');
    expect(await stored()).toEqual(before);
  });
});

describe('defaults: one per currency', () => {
  it('making one the default ends the previous default of its currency only', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'A', iban: IBAN_DE });
    const b = await created({ currency: 'EUR', holder: 'B', iban: IBAN_NL });
    const g = await created({ currency: 'GBP', holder: 'G', iban: IBAN_GB });
    const res = await patch(b.id, { is_default: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().is_default).toBe(true);
    expect(await defaultsOf('EUR')).toEqual([b.id]);
    expect(await defaultsOf('GBP')).toEqual([g.id]);
    // A new account sent as the default takes it over as well.
    const c = await created({ currency: 'EUR', holder: 'C', iban: IBAN_DE, is_default: true });
    expect(await defaultsOf('EUR')).toEqual([c.id]);
    // is_default false leaves the currency without one (invoices in it print no account).
    await patch(c.id, { is_default: false });
    expect(await defaultsOf('EUR')).toEqual([]);
    expect(a.is_default).toBe(true);
  });

  it('deleting the default makes the oldest other account of its currency the default', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'A', iban: IBAN_DE });
    const b = await created({ currency: 'EUR', holder: 'B', iban: IBAN_NL });
    ctx.clock.advance(1000);
    const c = await created({ currency: 'EUR', holder: 'C', iban: IBAN_DE });
    const res = await remove(a.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(await defaultsOf('EUR')).toEqual([b.id]);
    expect((await remove(c.id)).statusCode).toBe(204);
    expect(await defaultsOf('EUR')).toEqual([b.id]);
    expect((await remove(b.id)).statusCode).toBe(204);
    expect(await stored()).toEqual([]);
    expect((await remove(b.id)).statusCode).toBe(404);
  });

  it('moving the default to another currency hands the old currency’s default on, and takes the new one’s when it has none', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'A', iban: IBAN_DE });
    const b = await created({ currency: 'EUR', holder: 'B', iban: IBAN_NL });
    const moved = await patch(a.id, { currency: 'CHF' });
    expect(moved.json()).toMatchObject({ currency: 'CHF', is_default: true });
    expect(await defaultsOf('EUR')).toEqual([b.id]);
    const back = await patch(a.id, { currency: 'EUR' });
    expect(back.json()).toMatchObject({ currency: 'EUR', is_default: false });
    expect(await defaultsOf('EUR')).toEqual([b.id]);
  });

  it('stays one default under parallel creates and parallel "make default" requests', async () => {
    await clean();
    const creates = await Promise.all(
      Array.from({ length: 8 }, (_, i) => add({ currency: 'EUR', holder: `Parallel ${i}`, iban: i % 2 ? IBAN_DE : IBAN_NL, is_default: true })),
    );
    expect(creates.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(await defaultsOf('EUR')).toHaveLength(1);
    // The last one committed holds it: exactly one of the answers is still the default.
    const ids = creates.map((r) => r.json().id as string);
    const makes = await Promise.all(ids.map((id) => patch(id, { is_default: true })));
    expect(makes.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const defaults = await defaultsOf('EUR');
    expect(defaults).toHaveLength(1);
    expect(ids).toContain(defaults[0]);
    // Parallel first accounts of a new currency: one of them becomes its default.
    const firsts = await Promise.all(Array.from({ length: 6 }, (_, i) => add({ currency: 'CHF', holder: `First ${i}`, local_account: `Konto ${i}` })));
    expect(firsts.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(await defaultsOf('CHF')).toHaveLength(1);
    expect(firsts.filter((r) => r.json().is_default)).toHaveLength(1);
  });

  it('the database refuses a second default itself (unique index)', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'A', iban: IBAN_DE });
    await expect(
      ctx.db.insertInto('bank_accounts').values({ company_id: w.companyId, id: newId(), currency: 'EUR', holder: 'B', iban: IBAN_NL, is_default: true }).execute(),
    ).rejects.toThrow(/bank_accounts_default_key/);
    expect(await defaultsOf('EUR')).toEqual([a.id]);
  });
});

describe('who may act', () => {
  it('owners and administrators; managers (even with View invoices) and members are refused', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'Acme', iban: IBAN_DE });
    expect((await add({ currency: 'GBP', holder: 'Owner Ltd', iban: IBAN_GB }, s.owner)).statusCode).toBe(201);
    const before = await stored();
    for (const caller of [s.mgrInvoices, s.member]) {
      expectError(await api(caller, 'GET', '/web/api/bank_accounts'), 403, 'forbidden');
      expectError(await api(caller, 'GET', `/web/api/bank_accounts/${a.id}`), 403, 'forbidden');
      expectError(await add({ currency: 'EUR', holder: 'X', iban: IBAN_NL }, caller), 403, 'forbidden');
      expectError(await patch(a.id, { is_default: false }, caller), 403, 'forbidden');
      expectError(await remove(a.id, caller), 403, 'forbidden');
    }
    // API keys never reach the web app's routes, not even an owner's.
    expectError(await api(w.owner, 'GET', '/web/api/bank_accounts'), 403, 'session_required');
    expectError(await api(w.owner, 'POST', '/web/api/bank_accounts', { currency: 'EUR', holder: 'X', iban: IBAN_NL }), 403, 'session_required');
    expect(await stored()).toEqual(before);
  });
});

describe('tenancy', () => {
  it('another workspace’s account is 404 on read, change and delete, and stays as it was', async () => {
    await clean();
    const mine = await created({ currency: 'EUR', holder: 'Acme', iban: IBAN_DE });
    const theirs = await stored(foreign.session.companyId);
    expectError(await api(s.owner, 'GET', `/web/api/bank_accounts/${foreign.accountId}`), 404, 'not_found');
    expectError(await patch(foreign.accountId, { holder: 'Hijacked', is_default: true }, s.owner), 404, 'not_found');
    expectError(await remove(foreign.accountId, s.owner), 404, 'not_found');
    expect(await stored(foreign.session.companyId)).toEqual(theirs);
    const list = await api(s.owner, 'GET', '/web/api/bank_accounts');
    expect(list.json().bank_accounts.map((a: { id: string }) => a.id)).toEqual([mine.id]);
    // And the other way round.
    expectError(await api(foreign.session, 'GET', `/web/api/bank_accounts/${mine.id}`), 404, 'not_found');
    expectError(await remove(mine.id, foreign.session), 404, 'not_found');
    expect(await stored()).toHaveLength(1);
  });
});

describe('backup', () => {
  it('exports the display details of real accounts, and nothing else', async () => {
    await clean();
    const a = await created({ currency: 'EUR', holder: 'Acme Studio GmbH', iban: IBAN_DE, bic: 'COBADEFFXXX', bank_name: 'Commerzbank' });
    const b = await created({ currency: 'GBP', holder: 'Acme Ltd', local_account: 'Sort code 12-34-56\nAccount 12345678' });
    const manifest = (await api(w.owner, 'GET', '/api/v2/backup')).json();
    const resource = manifest.resources.find((r: { name: string }) => r.name === 'bank_accounts');
    expect(resource).toMatchObject({ total_entries: 2, endpoint: '/api/v2/backup/bank_accounts' });
    expect(manifest.notes.join('\n')).not.toMatch(/bank_accounts:/);
    const res = await api(w.owner, 'GET', '/api/v2/backup/bank_accounts');
    expect(res.statusCode, res.body).toBe(200);
    const records = res.json().records as Array<Record<string, unknown>>;
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    expect(Object.keys(byId).sort()).toEqual([a.id, b.id].sort());
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(['bank_name', 'bic', 'created_at', 'currency', 'holder', 'iban', 'id', 'is_default', 'local_account', 'updated_at']);
    }
    expect(byId[a.id]).toEqual({ ...a });
    expect(byId[b.id]).toEqual({ ...b });
    // The other workspace's account is not in it.
    expect(JSON.stringify(records)).not.toContain(IBAN_NL);
    // Administrators only, as the whole backup.
    expect((await api(w.mgrInvoices, 'GET', '/api/v2/backup/bank_accounts')).statusCode).toBe(403);
  });
});
