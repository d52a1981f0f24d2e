import { rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { loadConfig } from '../src/config.ts';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { SharedDatabase, tryParse } from './cli-runner.ts';
import { DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema } from './helpers.ts';

/**
 * `sheaf admin retainer list|show`: the operator reads the balances through the same
 * service as the web app; the balance follows the invoices (a funding line counts
 * once its invoice is paid, a credit unless its invoice is voided); bad options exit 2,
 * an unknown or other workspace's retainer exits 3.
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

let ws: string;
let otherWs: string;
let retainer: string;

/** An invoice in `state` with one retainer line of `amount`. */
async function retainerLine(db: Kysely<DB>, client: string, state: 'draft' | 'open' | 'paid' | 'voided', effect: 'charge' | 'credit', amount: string, number: string) {
  const invoice = newId();
  await db
    .insertInto('invoices')
    .values({ company_id: ws, id: invoice, client_id: client, number, state, issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR' })
    .execute();
  await db
    .insertInto('invoice_line_items')
    .values({ company_id: ws, id: newId(), invoice_id: invoice, kind: 'Retainer', unit_price: amount, effect, taxed: false, taxed2: false, retainer_id: retainer })
    .execute();
}

beforeAll(async () => {
  ws = (await sheaf('admin', 'workspace', 'create', '--name', 'Retainer Co', '--currency', 'EUR', '--json')).json.id;
  otherWs = (await sheaf('admin', 'workspace', 'create', '--name', 'Other Co', '--json')).json.id;
  await withDb(async (db) => {
    const client = newId();
    await db.insertInto('clients').values({ company_id: ws, id: client, name: 'Globex' }).execute();
    retainer = newId();
    await db.insertInto('retainers').values({ company_id: ws, id: retainer, client_id: client, name: 'Support', currency: 'EUR' }).execute();
    await retainerLine(db, client, 'paid', 'charge', '1000', 'R-1'); // counts: +1000
    await retainerLine(db, client, 'open', 'charge', '500', 'R-2'); // awaiting payment
    await retainerLine(db, client, 'open', 'credit', '250.5', 'I-1'); // counts: −250.50
    await retainerLine(db, client, 'voided', 'credit', '100', 'I-2'); // released
  });
}, 120_000);

afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

describe('sheaf admin retainer', () => {
  it('lists retainers with their balances and shows one with its history', async () => {
    const list = await sheaf('admin', 'retainer', 'list', '--workspace', ws);
    expect(list.code, list.err).toBe(0);
    expect(list.out.split('\n')[0]).toMatch(/^id\s+client\s+name\s+currency\s+balance\s+pending\s+archived/);
    expect(list.out).toMatch(/Globex\s+Support\s+EUR\s+749\.50\s+500\.00\s+false/);
    const json = await sheaf('admin', 'retainer', 'list', '--workspace', ws, '--json');
    expect(json.json).toEqual([expect.objectContaining({ id: retainer, name: 'Support', balance: 749.5, pending: 500 })]);

    const show = await sheaf('admin', 'retainer', 'show', '--workspace', ws, '--retainer', retainer);
    expect(show.code, show.err).toBe(0);
    expect(show.out).toMatch(/balance\s+749\.50/);
    expect(show.out).toMatch(/R-1\s+2026-03-01\s+paid\s+funding\s+1000\.00\s+true/);
    expect(show.out).toMatch(/I-2\s+2026-03-01\s+voided\s+credit\s+100\.00\s+false/);
  });

  it('refuses bad options (exit 2) and unknown or other-workspace retainers (exit 3)', async () => {
    expect((await sheaf('admin', 'retainer', 'show', '--workspace', ws, '--retainer', 'nope')).code).toBe(2);
    expect((await sheaf('admin', 'retainer', 'list', '--workspace', ws, '--archived', 'maybe')).code).toBe(2);
    expect((await sheaf('admin', 'retainer', 'show', '--workspace', otherWs, '--retainer', retainer)).code).toBe(3);
    expect((await sheaf('admin', 'retainer', 'show', '--workspace', ws, '--retainer', newId())).code).toBe(3);
    expect((await sheaf('admin', 'retainer', 'list', '--workspace', otherWs, '--json')).json).toEqual([]);
  });
});
