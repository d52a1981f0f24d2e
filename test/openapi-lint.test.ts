import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { operationIdFor } from '../src/http/openapi.ts';
import { createTestContext, type TestContext } from './helpers.ts';

/**
 * The served OpenAPI document is what SDK generators read: it must pass
 * Redocly's recommended rules with nothing left over, and every operation must
 * carry a stable, readable, unique operationId (the SDK's method name).
 */
let ctx: TestContext;
let source: string;
type Operation = { operationId?: string };
let operations: Array<{ method: string; path: string; op: Operation }>;

beforeAll(async () => {
  ctx = await createTestContext();
  const res = await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
  expect(res.statusCode).toBe(200);
  source = res.body;
  const doc = JSON.parse(source) as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => ctx?.close());

describe('OpenAPI document', () => {
  it("has no error and no warning under Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
  });

  it('names every operation, each name once, with readable names derived from the route', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const byRoute = Object.fromEntries(operations.map(({ method, path, op }) => [`${method} ${path}`, op.operationId]));
    expect(byRoute).toMatchObject({
      'GET /api/v2/time_entries': 'listTimeEntries',
      'POST /api/v2/time_entries': 'createTimeEntry',
      'GET /api/v2/time_entries/{id}': 'getTimeEntry',
      'PATCH /api/v2/time_entries/{id}': 'updateTimeEntry',
      'DELETE /api/v2/time_entries/{id}': 'deleteTimeEntry',
      'PATCH /api/v2/time_entries/{id}/stop': 'stopTimeEntry',
      'PATCH /api/v2/time_entries/{id}/restart': 'restartTimeEntry',
      'DELETE /api/v2/time_entries/{id}/external_reference': 'deleteTimeEntryExternalReference',
      'GET /api/v2/invoices/{id}/pdf': 'getInvoicePdf',
      'GET /api/v2/invoices/{id}/messages': 'listInvoiceMessages',
      'POST /api/v2/invoices/{id}/messages': 'createInvoiceMessage',
      'GET /api/v2/expense_categories': 'listExpenseCategories',
      'GET /api/v2/expenses/{expense_id}/receipt': 'getExpenseReceipt',
      'GET /api/v2/projects/{project_id}/user_assignments': 'listProjectUserAssignments',
      'DELETE /api/v2/projects/{project_id}/user_assignments/{user_id}': 'deleteProjectUserAssignment',
      'GET /api/v2/users/me': 'getCurrentUser',
      'GET /api/v2/reports/time/team': 'getTeamTimeReport',
      'POST /api/v2/approvals/submit': 'submitForApproval',
    });
  });

  it('describes the error body once, as components.schemas.Error, and every error response refers to it', async () => {
    const doc = JSON.parse(source);
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error', 'error_description', 'message'] });
    expect(Object.keys(doc.components.schemas.Error.properties)).toEqual(['error', 'error_description', 'message', 'field', 'refusal']);
    const errors = Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>)
      .flatMap((ops) => Object.values(ops))
      .flatMap((op) => Object.entries(op.responses).filter(([status]) => /^[45]XX$/.test(status)))
      .map(([, response]) => response.content?.['application/json']?.schema);
    expect(errors.length).toBeGreaterThan(100);
    expect(errors.filter((schema) => JSON.stringify(schema) !== '{"$ref":"#/components/schemas/Error"}')).toEqual([]);
    // Written out per route, the body was half the document's bytes.
    expect(source.split('machine-readable code').length - 1).toBe(1);
    // And an error is still answered in that shape (its extras, through the same schema: test/import.test.ts and test/refusals.test.ts).
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v2/users/me' });
    expect(res.statusCode).toBe(401);
    expect(Object.keys(res.json())).toEqual(expect.arrayContaining(['error', 'error_description', 'message']));
  });

  it('declares Idempotency-Key and If-Match as header parameters where the routes read them (428 where If-Match is required)', async () => {
    const doc = JSON.parse(source);
    const headers = (path: string, method: string) =>
      Object.fromEntries(
        (doc.paths[path][method].parameters as Array<{ in: string; name: string; required?: boolean }>)
          .filter((p) => p.in === 'header')
          .map((p) => [p.name, p.required ?? false]),
      );
    for (const resource of ['clients', 'projects']) {
      expect(headers(`/api/v2/${resource}/{id}`, 'delete'), resource).toEqual({ 'If-Match': true });
      expect(headers(`/api/v2/${resource}/{id}`, 'patch'), resource).toEqual({ 'Idempotency-Key': false, 'If-Match': false });
      expect(headers(`/api/v2/${resource}`, 'post'), resource).toEqual({ 'Idempotency-Key': false });
    }
    for (const resource of ['invoices', 'expenses']) {
      expect(headers(`/api/v2/${resource}/{id}`, 'delete'), resource).toMatchObject({ 'If-Match': false });
    }
    expect(doc.paths['/api/v2/users/me'].get.parameters ?? []).toEqual([]);
    // The handlers read the same flag (checkIfMatch): the 428s are tested with each resource.
  });

  it('serves relative servers and the MIT licence', () => {
    const doc = JSON.parse(source);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});

describe('operationIds', () => {
  it('derive from the method and the route alone', () => {
    expect(operationIdFor('GET', '/api/v2/clients')).toBe('listClients');
    expect(operationIdFor('POST', '/api/v2/clients')).toBe('createClient');
    expect(operationIdFor('PUT', '/api/v2/clients/:id')).toBe('replaceClient');
    expect(operationIdFor('GET', '/api/v2/projects/:project_id/task_assignments/:task_id')).toBe('getProjectTaskAssignment');
  });

  const plugin = (routes: Array<{ url: string; operationId?: string }>) => async (app: FastifyInstance) => {
    for (const { url, operationId } of routes) {
      app.get(url, { config: { access: 'public' }, schema: { operationId, response: { 200: Type.Object({}) } } }, async () => ({}));
    }
  };

  it('refuse to start an app in which two operations would share a name', async () => {
    await expect(
      buildApp({ config: ctx.config, db: ctx.db, plugins: [plugin([{ url: '/api/v2/_test/gadgets/:id', operationId: 'getClient' }])] }),
    ).rejects.toThrow(/operationId getClient .* already used by GET \/api\/v2\/clients\/:id/);
  });

  it("keep a route's own operationId", async () => {
    const app = await buildApp({
      config: ctx.config,
      db: ctx.db,
      plugins: [plugin([{ url: '/api/v2/_test/gadgets', operationId: 'browseGadgets' }, { url: '/api/v2/_test/widgets' }])],
    });
    try {
      const doc = (await app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
      expect(doc.paths['/api/v2/_test/gadgets'].get.operationId).toBe('browseGadgets');
      expect(doc.paths['/api/v2/_test/widgets'].get.operationId).toBe('listTestWidgets');
    } finally {
      await app.close();
    }
  });
});
