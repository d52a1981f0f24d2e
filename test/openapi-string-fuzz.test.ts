import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Strings the database cannot store (NUL, unpaired UTF-16 surrogates) are a 400
 * naming the field, everywhere (issue 14 item 5). The cases are generated from
 * the served OpenAPI document, so a new route or field is covered without
 * touching this file: every string the JSON request bodies can hold (nested
 * objects, array items, free-form objects such as `metadata` and their keys,
 * properties of any type) and every string query parameter gets, one at a time,
 * a value the database cannot store. Multipart bodies and path parameters are
 * covered in test/storable-strings.test.ts.
 */

// A lone low surrogate takes the same path as a high one (test/storable-strings.test.ts tries it).
const UNSTORABLE = ['a\u0000b', 'a\ud800b'];
const UNSTORABLE_MESSAGE = /NUL character or an unpaired UTF-16 surrogate/;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Segment = string | number;

interface Operation {
  method: string;
  path: string;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: { in: string; name: string; schema?: Schema }[];
}

/** A place in a body that can hold a string: a value, or (inKey) the name of a free-form object's property. */
interface Target {
  path: Segment[];
  inKey: boolean;
}

const typesOf = (schema: Schema) => [schema.type ?? []].flat();
const branchesOf = (schema: Schema) => [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
const holdsString = (schema: Schema): boolean => typesOf(schema).includes('string') || branchesOf(schema).some(holdsString);

/** Every place in a value of `schema` where a string can go. */
function stringTargets(schema: Schema | boolean | undefined, path: Segment[] = []): Target[] {
  if (schema === undefined || schema === false) return [];
  // `true`, or a schema with no type and nothing else said: any value, so a string too.
  if (schema === true) return [{ path, inKey: false }];
  const branches = branchesOf(schema);
  const types = typesOf(schema);
  const isObject = types.includes('object') || schema.properties !== undefined;
  const isArray = types.includes('array') || schema.items !== undefined;
  const targets = branches.flatMap((branch) => stringTargets(branch, path));
  if (types.includes('string') || (types.length === 0 && branches.length === 0 && !isObject && !isArray)) targets.push({ path, inKey: false });
  if (isObject) {
    for (const [name, property] of Object.entries(schema.properties ?? {})) targets.push(...stringTargets(property, [...path, name]));
    const extra = schema.additionalProperties;
    if (extra !== undefined && extra !== false) {
      targets.push({ path: [...path, 'key'], inKey: true });
      targets.push(...stringTargets(extra, [...path, 'key']));
    }
  }
  if (isArray) {
    const items = Array.isArray(schema.items) ? schema.items : [schema.items ?? true];
    items.forEach((item) => targets.push(...stringTargets(item, [...path, 0])));
  }
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = JSON.stringify(t);
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** The schema itself or its first anyOf/oneOf/allOf branch that is an object (or an array). */
function branchOf(schema: Schema | boolean | undefined, kind: 'object' | 'array'): Schema | undefined {
  if (typeof schema !== 'object') return undefined;
  const is = kind === 'object' ? schema.properties !== undefined : schema.items !== undefined;
  if (is || typesOf(schema).includes(kind)) return schema;
  return branchesOf(schema)
    .map((branch) => branchOf(branch, kind))
    .find(Boolean);
}

/** A value `schema` accepts, as small as can be: the required properties of objects, empty arrays. */
function placeholder(schema: Schema | boolean | undefined): unknown {
  if (typeof schema !== 'object') return 'x';
  const own = schema as Schema & { enum?: unknown[]; format?: string };
  if (own.enum) return own.enum[0];
  const type = typesOf(schema).find((t) => t !== 'null');
  if (type === undefined) {
    const branch = branchesOf(schema).find((b) => !typesOf(b).includes('null'));
    return branch ? placeholder(branch) : 'x';
  }
  if (type === 'object') return requiredOf(schema);
  return { string: own.format === 'date' ? '2026-03-02' : 'x', integer: 1, number: 1, boolean: true, array: [] }[type];
}

const requiredOf = (schema: Schema & { required?: string[] }) =>
  Object.fromEntries((schema.required ?? []).map((name) => [name, placeholder(schema.properties?.[name])]));

/**
 * A body holding `value` at `path`, with the required properties of every object
 * on the way (so that checks of a route's own, such as a line edit's id, pass and
 * the storable-string check is what answers).
 */
function bodyWith(schema: Schema | boolean | undefined, path: Segment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const items = branchOf(schema, 'array')?.items;
    return [bodyWith(Array.isArray(items) ? items[0] : items, rest, value)];
  }
  const object = branchOf(schema, 'object');
  const property = object?.properties?.[head] ?? object?.additionalProperties;
  return { ...(object ? requiredOf(object) : {}), [head]: bodyWith(property, rest, value) };
}

let ctx: TestContext;
let owner: Caller;
let operations: Operation[];
beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner } = await createWorkspaceWithOwner(ctx.db));
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
  operations = Object.entries(document.paths as Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
  );
});
afterAll(() => ctx.close());

/** The operation's URL with every path parameter an id (unknown ids are fine: validation answers first). */
const urlOf = (op: Operation) => op.path.replace(/\{[^}]+\}/g, () => newId());

describe('every string field of the OpenAPI document refuses what the database cannot store', () => {
  it('in JSON request bodies: 400 invalid_request naming the field, for every field and every kind of unstorable string', async () => {
    const failures: string[] = [];
    let operationsCovered = 0;
    let targetsCovered = 0;
    for (const op of operations) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const targets = stringTargets(schema);
      if (targets.length > 0) operationsCovered++;
      targetsCovered += targets.length;
      for (const target of targets) {
        for (const bad of UNSTORABLE) {
          const path = target.inKey ? [...target.path.slice(0, -1), bad] : target.path;
          const payload = bodyWith(schema, path, target.inKey ? 'v' : bad);
          const field = path.join('.');
          const res = await request(ctx.app, owner, { method: op.method as 'POST', url: urlOf(op), payload: payload as object });
          const body = res.json();
          if (res.statusCode !== 400 || body.error !== 'invalid_request' || body.field !== field || !UNSTORABLE_MESSAGE.test(body.message)) {
            failures.push(`${op.method} ${op.path} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The generator still sees the document: every operation with a JSON body but one
    // (restart: a boolean only) has string fields, nested and free-form ones included.
    expect(operationsCovered).toBeGreaterThanOrEqual(24);
    expect(targetsCovered).toBeGreaterThanOrEqual(140);
  });

  it('in query strings: 400 invalid_request naming the parameter, for every string parameter', async () => {
    const failures: string[] = [];
    let parameters = 0;
    for (const op of operations) {
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== 'query' || !parameter.schema || !holdsString(parameter.schema)) continue;
        parameters++;
        // A lone surrogate cannot be percent-encoded as UTF-8, so the query string carries the NUL.
        const res = await request(ctx.app, owner, { method: op.method as 'GET', url: `${urlOf(op)}?${parameter.name}=a%00b` });
        const body = res.json();
        if (res.statusCode !== 400 || body.error !== 'invalid_request' || body.field !== parameter.name || !UNSTORABLE_MESSAGE.test(body.message)) {
          failures.push(`${op.method} ${op.path}?${parameter.name} → ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(parameters).toBeGreaterThanOrEqual(50);
  });
});
