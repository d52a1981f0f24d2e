import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUnstorableString } from '../src/http/storable-strings.ts';
import { createTestContext, request, type TestContext } from './helpers.ts';
import { expenseCategory, makeTimeWorkspace, type TimeWorkspace } from './fixtures/catalog.ts';

/**
 * Strings PostgreSQL cannot store (a NUL character, an unpaired UTF-16 surrogate)
 * are a 400 naming the field at request validation, on every route and in every
 * part: body values and keys (nested, metadata), query strings and multipart
 * fields; a path parameter holding one is an id that does not exist (404).
 * Before, 16 of 48 string fields gave 500 for a NUL and 23 for a lone surrogate
 * (issue 14 item 5); the rest were silently altered.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let category: string;
beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeTimeWorkspace(ctx.db);
  category = await expenseCategory(ctx.db, w.companyId);
});
afterAll(() => ctx.close());

const NUL = 'a\u0000b';
const LONE_HIGH = 'a\ud800b';
const LONE_LOW = 'ok\udc00';

async function expect400(method: 'GET' | 'POST' | 'PATCH', url: string, payload: unknown, field: string, headers: Record<string, string> = {}) {
  const res = await request(ctx.app, w.owner, { method, url, payload: payload as object, headers });
  expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
  expect(res.json()).toMatchObject({ error: 'invalid_request', field });
  expect(res.json().message).toMatch(/NUL character or an unpaired UTF-16 surrogate/);
}

const count = async (table: 'clients' | 'projects' | 'time_entries' | 'expenses' | 'invoices') =>
  Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow()).n);

describe('strings the database cannot store are a 400 naming the field, everywhere', () => {
  it('in body values of every resource, nested objects and metadata keys and values; nothing is created', async () => {
    const before = await Promise.all((['clients', 'projects', 'time_entries', 'expenses', 'invoices'] as const).map(count));
    for (const bad of [NUL, LONE_HIGH, LONE_LOW]) {
      await expect400('POST', '/api/v2/clients', { name: bad }, 'name');
      await expect400('POST', '/api/v2/projects', { client_id: w.clientId, name: 'P', notes: bad }, 'notes');
      const entry = { project_id: w.project, task_id: w.task, spent_date: '2026-03-02', hours: 1 };
      await expect400('POST', '/api/v2/time_entries', { ...entry, metadata: { k: bad } }, 'metadata.k');
      await expect400('POST', '/api/v2/time_entries', { ...entry, metadata: { [bad]: 'v' } }, `metadata.${bad}`);
      await expect400('POST', '/api/v2/time_entries', { ...entry, external_reference: { id: bad } }, 'external_reference.id');
      await expect400('POST', '/api/v2/expenses', { project_id: w.project, expense_category_id: category, spent_date: '2026-03-02', total_cost: 1, metadata: { list: ['x', bad] } }, 'metadata.list.1');
      await expect400('POST', '/api/v2/invoices', { client_id: w.clientId, subject: bad, line_items: [{ description: 'x' }] }, 'subject');
      await expect400('POST', '/api/v2/invoices', { client_id: w.clientId, line_items: [{ description: bad }] }, 'line_items.0.description');
    }
    expect(await Promise.all((['clients', 'projects', 'time_entries', 'expenses', 'invoices'] as const).map(count))).toEqual(before);
  });

  it('in query strings, path parameters and multipart form fields', async () => {
    await expect400('GET', `/api/v2/time_entries?external_reference_id=a%00&external_reference_service=b`, undefined, 'external_reference_id');
    await expect400('GET', `/api/v2/clients?updated_since=${encodeURIComponent(NUL)}`, undefined, 'updated_since');
    // a path parameter is an id: one holding a NUL is no id, so the usual 404 (never a 500)
    const path = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/clients/a%00b' });
    expect(path.statusCode).toBe(404);
    expect(path.json().error).toBe('not_found');
    const boundary = 'nulboundary';
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body =
      field('project_id', w.project) + field('expense_category_id', category) + field('spent_date', '2026-03-02') + field('total_cost', '1') + field('notes', NUL) + `--${boundary}--\r\n`;
    await expect400('POST', '/api/v2/expenses', body, 'notes', { 'content-type': `multipart/form-data; boundary=${boundary}` });
  });

  it('well-formed text is stored as sent: a surrogate pair (emoji), other control characters, non-Latin scripts', async () => {
    const name = 'Café 🍰 \u0001 漢字';
    const res = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/clients', payload: { name } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe(name);
  });
});

describe('findUnstorableString', () => {
  it('finds the first NUL or unpaired surrogate in values and keys, with its path', () => {
    expect(findUnstorableString({ a: 'ok', b: ['x', { c: NUL }] })).toEqual({ path: '/b/1/c', inKey: false });
    expect(findUnstorableString({ [LONE_LOW]: 1 })).toEqual({ path: `/${LONE_LOW}`, inKey: true });
    expect(findUnstorableString('\ud83c\udf70')).toBeNull();
    expect(findUnstorableString('\udf70\ud83c')).toEqual({ path: '', inKey: false });
    expect(findUnstorableString({ 'a/b': NUL })).toEqual({ path: '/a~1b', inKey: false });
    expect(findUnstorableString([1, true, null, { n: 2 }])).toBeNull();
  });
});
