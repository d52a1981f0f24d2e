import { rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { redeemLink } from '../src/auth/one-time-links.ts';
import { deactivateMember } from '../src/modules/people/users/index.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { runCli, SharedDatabase } from './cli-runner.ts';
import { addMember, createWorkspaceWithOwner, DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema, type Caller } from './helpers.ts';

/**
 * `sheaf admin user sign-in-link`: the operator's way to let a person back in to the web app
 * without e-mail (the first start's link used up before a password was chosen, no SMTP_URL for a
 * reset). Commands run in-process on one shared database.
 */

const dataDir = migratedDataDir();
const schema = DATABASE_URL ? uniqueSchema() : undefined;
const env: Record<string, string | undefined> = schema
  ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://sheaf.example.com' }
  : { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://sheaf.example.com' };
const shared = new SharedDatabase();
const sheaf = (args: string[]) => runCli(args, { env, openDatabase: shared.open });

let db: Kysely<DB>;
let companyId: string;
let owner: Caller;

beforeAll(async () => {
  db = (await shared.open(loadConfig(env))).db;
  await migrate(db);
  const w = await createWorkspaceWithOwner(db, 'Sign-in links');
  companyId = w.company.id;
  owner = w.owner;
}, 120_000);

afterAll(async () => {
  await shared.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

const tokenOf = (link: string) => link.split('#')[1];

describe('sheaf admin user sign-in-link', () => {
  it('prints a link to the web app that signs the member in once, replaces their earlier one, and is in the audit log', async () => {
    const first = await sheaf(['admin', 'user', 'sign-in-link', '--workspace', companyId, '--user', owner.email, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ user_id: owner.userId, email: owner.email, expires_in_hours: 24 });
    const link = (first.json as { link: string }).link;
    expect(link).toMatch(/^https:\/\/sheaf\.example\.com\/sign-in\/link#[A-Za-z0-9_-]{43}$/);

    const text = await sheaf(['admin', 'user', 'sign-in-link', '--workspace', companyId, '--user', owner.userId]);
    expect(text.code, text.stderr).toBe(0);
    const second = text.stdout.match(/https:\S+/)![0];
    expect(text.stdout).toContain(`A sign-in link for ${owner.email}`);

    const now = new Date();
    expect(await redeemLink(db, tokenOf(link), 'sign_in', now)).toBeNull(); // replaced by the second
    expect(await redeemLink(db, tokenOf(second), 'sign_in', now)).toBe(owner.userId);
    expect(await redeemLink(db, tokenOf(second), 'sign_in', now)).toBeNull(); // once
    const logged = await db.selectFrom('audit_logs').select(['action', 'details']).where('company_id', '=', companyId).where('action', '=', 'session.link_issued').execute();
    expect(logged).toHaveLength(2);
    expect(logged[0].details).toEqual({ by: 'operator' });
  });

  it('refuses an agent, a deactivated member (exit 2), someone not in the workspace (exit 3) and issues nothing then', async () => {
    const agent = await addMember(db, companyId, { userType: 'agent' });
    const gone = await addMember(db, companyId);
    await deactivateMember(db, operatorPrincipal(companyId), gone.userId);
    const before = await db.selectFrom('one_time_links').select('user_id').execute();
    const refusedAgent = await sheaf(['admin', 'user', 'sign-in-link', '--workspace', companyId, '--user', agent.email]);
    expect(refusedAgent.code).toBe(2);
    expect(refusedAgent.stderr).toContain('is an agent');
    const refusedGone = await sheaf(['admin', 'user', 'sign-in-link', '--workspace', companyId, '--user', gone.email]);
    expect(refusedGone.code).toBe(2);
    expect(refusedGone.stderr).toContain('is deactivated here');
    expect((await sheaf(['admin', 'user', 'sign-in-link', '--workspace', companyId, '--user', 'nobody@example.com'])).code).toBe(3);
    expect(await db.selectFrom('one_time_links').select('user_id').execute()).toHaveLength(before.length);
  });
});
