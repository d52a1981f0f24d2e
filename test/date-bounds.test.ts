import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTimeWorkspace, postEntry, setNow, type TimeWorkspace } from './fixtures/catalog.ts';
import { createTestContext, request, type TestContext } from './helpers.ts';

/**
 * Dates the database cannot hold are a 400, never a 500: PostgreSQL has no
 * year 0000, and a work date in year 9999 has a week that ends in year 10000.
 * The query sweep reads the OpenAPI document, so a new list filter with a
 * `date` or `date-time` format is checked without being named here.
 */

let ctx: TestContext;
let w: TimeWorkspace;

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, '2026-03-18T10:00:00Z');
  w = await makeTimeWorkspace(ctx.db);
});
afterAll(() => ctx.close());

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { format?: string; enum?: string[]; anyOf?: { enum?: string[] }[] };
}

/** A required query parameter that is not a date (the export's `format`): its first allowed value. */
const firstAllowed = (p: Parameter) => p.schema?.enum?.[0] ?? p.schema?.anyOf?.[0]?.enum?.[0];

const VALID: Record<string, string> = { date: '2026-01-01', 'date-time': '2026-01-01T00:00:00Z' };
const OUT_OF_RANGE: Record<string, string[]> = {
  date: ['0000-01-01', '0000-12-31'],
  'date-time': ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-05:00', '0001-01-01T00:00:00+05:00'],
};

describe('dates out of the storable range', () => {
  it('are a 400 in every list filter with a date or date-time format', async () => {
    const doc = (await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/openapi.json' })).json();
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, { parameters?: Parameter[] }>>(doc.paths)) {
      const params = item.get?.parameters ?? [];
      if (params.some((p) => p.in === 'path')) continue;
      const dated = params.filter((p) => p.in === 'query' && p.schema?.format && VALID[p.schema.format]);
      if (dated.length === 0) continue;
      const required = params.filter((p) => p.in === 'query' && p.required && !dated.includes(p));
      const valid = Object.fromEntries([
        ...required.map((p) => [p.name, firstAllowed(p)]),
        ...dated.map((p) => [p.name, VALID[p.schema!.format!]]),
      ]);
      const control = await request(ctx.app, w.owner, { method: 'GET', url: path, query: valid });
      expect(control.statusCode, `${path} with valid dates`).toBe(200);
      for (const param of dated) {
        for (const bad of OUT_OF_RANGE[param.schema!.format!]) {
          const res = await request(ctx.app, w.owner, { method: 'GET', url: path, query: { ...valid, [param.name]: bad } });
          expect(res.statusCode, `${path}?${param.name}=${bad}`).toBe(400);
          expect(res.json().error).toBe('invalid_request');
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('are a 400 in the reports, which take YYYYMMDD too', async () => {
    for (const url of [
      '/api/v2/reports/uninvoiced?from=00000101&to=00001231',
      '/api/v2/reports/uninvoiced?from=0000-01-01&to=0000-12-31',
      '/api/v2/reports/time/team?from=0000-01-01&to=0000-01-02',
    ]) {
      const res = await request(ctx.app, w.owner, { method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().field).toBe('from');
    }
  });

  it('limit the work date of time entries to 1900..2999, on create and on change', async () => {
    for (const spent_date of ['9999-12-31', '3000-01-01', '1899-12-31', '0000-01-01']) {
      const res = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date, hours: 1 });
      expect(res.statusCode, spent_date).toBe(400);
      expect(res.json().field).toBe('spent_date');
    }
    const ok = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2999-12-31', hours: 1 });
    expect(ok.statusCode).toBe(201);
    const moved = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${ok.json().id}`, payload: { spent_date: '9999-12-31' } });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().field).toBe('spent_date');
    const after = await request(ctx.app, w.member, { method: 'GET', url: `/api/v2/time_entries/${ok.json().id}` });
    expect(after.json().spent_date).toBe('2999-12-31');
  });

  it('are a 400 in body fields too (a project start in year 0000)', async () => {
    const res = await request(ctx.app, w.owner, {
      method: 'POST',
      url: '/api/v2/projects',
      payload: { client_id: w.clientId, name: 'Ancient', starts_on: '0000-01-01' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('starts_on');
  });
});
