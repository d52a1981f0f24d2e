import { rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { loadConfig } from '../src/config.ts';
import type { DB } from '../src/db/types.ts';
import { SharedDatabase, tryParse } from './cli-runner.ts';
import { DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema } from './helpers.ts';

/**
 * `sheaf admin bank-account add|list|update|default|remove` in-process through
 * main(): the operator acts through the same service as the web app, so the same
 * rules refuse bad input (exit 2, the option named, nothing written), an unknown or
 * other workspace's account is exit 3, and the default moves as it does there.
 */

const dataDir = migratedDataDir();
const schema = DATABASE_URL ? uniqueSchema() : undefined;
const env: Record<string, string | undefined> = schema ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' } : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
const database = new SharedDatabase();

async function sheaf(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, openDatabase: database.open });
  return { code, out: out.join('\n'), err: err.join('\n'), json: tryParse(out.join('\n')), error: tryParse(err.join('\n')) };
}

async function withDb<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  return fn((await database.open(loadConfig(env as Record<string, string>))).db);
}

const accountsOf = (ws: string) => withDb((db) => db.selectFrom('bank_accounts').select(['id', 'currency', 'holder', 'is_default']).where('company_id', '=', ws).orderBy('created_at').execute());

let ws: string;
let otherWs: string;

beforeAll(async () => {
  ws = (await sheaf('admin', 'workspace', 'create', '--name', 'Bank Co', '--currency', 'EUR', '--json')).json.id;
  otherWs = (await sheaf('admin', 'workspace', 'create', '--name', 'Other Co', '--json')).json.id;
}, 120_000);

afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

describe('sheaf admin bank-account', () => {
  it('adds, lists, updates, makes default and removes accounts', async () => {
    const a = await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'EUR', '--holder', 'Bank Co GmbH', '--iban', 'DE89 3704 0044 0532 0130 00', '--bic', 'COBADEFFXXX', '--json');
    expect(a.code, a.err).toBe(0);
    expect(a.json).toMatchObject({ currency: 'EUR', holder: 'Bank Co GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', is_default: true });
    const b = await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'EUR', '--holder', 'Bank Co BV', '--iban', 'NL91ABNA0417164300', '--json');
    expect(b.json.is_default).toBe(false);
    const uk = await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'GBP', '--holder', 'Bank Co Ltd', '--local-account', 'Sort code 12-34-56\\nAccount 12345678');
    expect(uk.code, uk.err).toBe(0);
    expect(uk.out).toMatch(/holder\s+Bank Co Ltd/);

    const list = await sheaf('admin', 'bank-account', 'list', '--workspace', ws);
    expect(list.out.split('\n')[0]).toMatch(/^id\s+currency\s+is_default\s+holder\s+iban/);
    expect(list.out).toContain('DE89370400440532013000');

    const made = await sheaf('admin', 'bank-account', 'default', '--workspace', ws, '--account', b.json.id);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toBe('Bank Co BV (EUR) is now the default for EUR invoices.');
    expect((await accountsOf(ws)).filter((r) => r.is_default).map((r) => r.holder)).toEqual(['Bank Co BV', 'Bank Co Ltd']);

    const updated = await sheaf('admin', 'bank-account', 'update', '--workspace', ws, '--account', a.json.id, '--bank-name', 'Commerzbank', '--bic', 'none', '--json');
    expect(updated.json).toMatchObject({ bank_name: 'Commerzbank', bic: null });

    const removed = await sheaf('admin', 'bank-account', 'remove', '--workspace', ws, '--account', b.json.id, '--json');
    expect(removed.code).toBe(0);
    expect(removed.json.deleted.id).toBe(b.json.id);
    // The oldest other EUR account is the default again.
    expect((await accountsOf(ws)).map((r) => [r.holder, r.is_default])).toEqual([
      ['Bank Co GmbH', true],
      ['Bank Co Ltd', true],
    ]);
  });

  it('refuses bad input naming the option, and writes nothing', async () => {
    const before = await accountsOf(ws);
    const bad = await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'EUR', '--holder', 'X', '--iban', 'DE89370400440532013001');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^sheaf: --iban has wrong check digits/);
    const json = await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'EUR', '--holder', 'X', '--bic', 'NOPE', '--iban', 'DE89370400440532013000', '--json');
    expect(json.code).toBe(2);
    expect(json.error).toMatchObject({ error: 'invalid_request', field: 'bic' });
    expect((await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'ZZZ', '--holder', 'X', '--local-account', 'x')).err).toMatch(/--currency must be an ISO 4217 code/);
    expect((await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--currency', 'EUR', '--holder', 'X')).err).toMatch(/needs an iban or a local_account/);
    expect((await sheaf('admin', 'bank-account', 'add', '--workspace', ws, '--holder', 'X')).code).toBe(2);
    expect((await sheaf('admin', 'bank-account', 'update', '--workspace', ws, '--account', before[0].id)).err).toMatch(/Name at least one thing to change/);
    expect((await sheaf('admin', 'bank-account', 'default', '--workspace', ws, '--account', 'first')).code).toBe(2);
    expect(await accountsOf(ws)).toEqual(before);
  });

  it('knows no account of another workspace (exit 3)', async () => {
    const [mine] = await accountsOf(ws);
    const res = await sheaf('admin', 'bank-account', 'remove', '--workspace', otherWs, '--account', mine.id, '--json');
    expect(res.code).toBe(3);
    expect(res.error.error).toBe('not_found');
    expect((await sheaf('admin', 'bank-account', 'default', '--workspace', otherWs, '--account', mine.id)).code).toBe(3);
    expect(await accountsOf(ws)).toContainEqual(mine);
    expect(await accountsOf(otherWs)).toEqual([]);
  });
});
