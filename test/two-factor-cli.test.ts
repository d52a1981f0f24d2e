import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { openSecret, sealSecret } from '../src/auth/secret-box.ts';
import { readEmbeddedSecretKey, settleSecretKeys } from '../src/auth/server-secret-key.ts';
import { newTotpSecret } from '../src/auth/two-factor.ts';
import { runCli, SharedDatabase } from './cli-runner.ts';
import { addMember, createWorkspaceWithOwner, DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema, type Caller } from './helpers.ts';

/**
 * What the operator does about two-factor sign-in (src/cli/two-factor-commands.ts): turn it off
 * for a person who lost their phone, require it of a workspace, and seal the stored secrets
 * with a new SHEAF_SECRET_KEY; and how the server settles its key at start
 * (src/auth/server-secret-key.ts). Commands run in-process on one shared database.
 */

const dataDir = migratedDataDir();
const schema = DATABASE_URL ? uniqueSchema() : undefined;
const env: Record<string, string | undefined> = schema
  ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }
  : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
const shared = new SharedDatabase();
const sheaf = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extra }, openDatabase: shared.open });

const OLD_KEY = 'the-old-key-at-least-thirty-two-characters-long';
const NEW_KEY = 'the-new-key-at-least-thirty-two-characters-long';

let db: Kysely<DB>;
let companyId: string;
let member: Caller;

/** Gives a person two-factor sign-in as an enrolment would leave it, sealed with `key`. */
async function enrol(userId: string, key: string) {
  const secret = newTotpSecret();
  await db
    .insertInto('user_two_factor')
    .values({ user_id: userId, secret: sealSecret([key], secret), enabled_at: new Date(), created_at: new Date(), updated_at: new Date() })
    .execute();
  return secret;
}

beforeAll(async () => {
  db = (await shared.open(loadConfig(env))).db;
  await migrate(db);
  const w = await createWorkspaceWithOwner(db, 'Two Factor CLI');
  companyId = w.company.id;
  member = await addMember(db, companyId);
}, 120_000);

afterAll(async () => {
  await shared.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

describe('sheaf admin two-factor reset', () => {
  it("turns a member's two-factor sign-in off, records it and e-mails them; a second time changes nothing", async () => {
    await enrol(member.userId, OLD_KEY);
    const res = await sheaf(['admin', 'two-factor', 'reset', '--workspace', companyId, '--user', member.email, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toEqual({ user_id: member.userId, two_factor_was_on: true });
    expect(await db.selectFrom('user_two_factor').select('user_id').where('user_id', '=', member.userId).execute()).toHaveLength(0);
    const logged = await db.selectFrom('audit_logs').select('action').where('company_id', '=', companyId).where('subject_id', '=', member.userId).execute();
    expect(logged.map((r) => r.action)).toContain('two_factor.reset');
    const mails = await db.selectFrom('outbox').select(['kind', 'payload']).where('company_id', '=', companyId).where('kind', '=', 'two_factor_disabled').execute();
    expect(mails.filter((m) => JSON.stringify(m.payload).includes(member.email))).toHaveLength(1);

    const again = await sheaf(['admin', 'two-factor', 'reset', '--workspace', companyId, '--user', member.userId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('had no two-factor sign-in; nothing changed');
  });

  it('refuses a malformed --user (exit 2) and someone not in the workspace (exit 3)', async () => {
    expect((await sheaf(['admin', 'two-factor', 'reset', '--workspace', companyId, '--user', 'nobody'])).code).toBe(2);
    expect((await sheaf(['admin', 'two-factor', 'reset', '--workspace', companyId, '--user', 'nobody@example.com'])).code).toBe(3);
    expect((await sheaf(['admin', 'two-factor', 'reset', '--user', member.email])).code).toBe(2);
  });
});

describe('sheaf admin workspace settings --require-two-factor', () => {
  it('requires a second factor of everyone in the workspace, and stops requiring it', async () => {
    const on = await sheaf(['admin', 'workspace', 'settings', '--workspace', companyId, '--require-two-factor', 'true', '--json']);
    expect(on.code, on.stderr).toBe(0);
    expect(on.json.require_two_factor).toBe(true);
    const off = await sheaf(['admin', 'workspace', 'settings', '--workspace', companyId, '--require-two-factor', 'false', '--json']);
    expect(off.json.require_two_factor).toBe(false);
    expect((await sheaf(['admin', 'workspace', 'settings', '--workspace', companyId, '--require-two-factor', 'maybe'])).code).toBe(2);
  });
});

describe('sheaf admin secret-key rotate', () => {
  it('seals every secret (two-factor, single sign-on) with the new key while the previous one opens the old ones; a second run has nothing to do', async () => {
    const person = await addMember(db, companyId);
    const secret = await enrol(person.userId, OLD_KEY);
    await db
      .insertInto('single_sign_on_configs')
      .values({ company_id: companyId, issuer: 'https://id.example.com', client_id: 'sheaf', client_secret: sealSecret([OLD_KEY], 'client secret'), display_name: 'Example ID' })
      .execute();
    const keys = { SHEAF_SECRET_KEY: NEW_KEY, SHEAF_SECRET_KEY_PREVIOUS: OLD_KEY };
    try {
      const res = await sheaf(['admin', 'secret-key', 'rotate', '--json'], keys);
      expect(res.code, res.stderr).toBe(0);
      expect(res.json).toEqual({ resealed: 2, current: 0 });
      const row = await db.selectFrom('user_two_factor').select('secret').where('user_id', '=', person.userId).executeTakeFirstOrThrow();
      expect(openSecret([NEW_KEY], row.secret)).toBe(secret);
      expect(() => openSecret([OLD_KEY], row.secret)).toThrow();
      const sso = await db.selectFrom('single_sign_on_configs').select('client_secret').where('company_id', '=', companyId).executeTakeFirstOrThrow();
      expect(openSecret([NEW_KEY], sso.client_secret)).toBe('client secret');
      expect((await sheaf(['admin', 'secret-key', 'rotate', '--json'], keys)).json).toEqual({ resealed: 0, current: 2 });
    } finally {
      await db.deleteFrom('user_two_factor').where('user_id', '=', person.userId).execute();
      await db.deleteFrom('single_sign_on_configs').where('company_id', '=', companyId).execute();
    }
  });

  it('without a key says what to set (exit 2); a key shorter than 32 characters is refused', async () => {
    const none = await sheaf(['admin', 'secret-key', 'rotate']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('SHEAF_SECRET_KEY');
    const short = await sheaf(['admin', 'secret-key', 'rotate'], { SHEAF_SECRET_KEY: 'too short' });
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('at least 32 characters');
  });
});

describe('sheaf admin sso show|remove', () => {
  it("shows the workspace's single sign-on without its secret, and turns it off (recorded); a second remove changes nothing", async () => {
    await db
      .insertInto('single_sign_on_configs')
      .values({ company_id: companyId, issuer: 'https://id.example.com', client_id: 'sheaf', client_secret: sealSecret([OLD_KEY], 'the client secret'), display_name: 'Example ID', allowed_domains: ['example.com'], allow_password_sign_in: false })
      .execute();
    try {
      const shown = await sheaf(['admin', 'sso', 'show', '--workspace', companyId, '--json'], { SHEAF_SECRET_KEY: OLD_KEY, PUBLIC_URL: 'https://sheaf.example.com' });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.json).toMatchObject({ enabled: true, issuer: 'https://id.example.com', client_id: 'sheaf', client_secret_set: true, allowed_domains: ['example.com'], allow_password_sign_in: false, redirect_uri: 'https://sheaf.example.com/web/api/sso/callback' });
      expect(shown.stdout).not.toContain('the client secret');
      const table = await sheaf(['admin', 'sso', 'show', '--workspace', companyId]);
      expect(table.stdout).toContain('https://id.example.com');

      const removed = await sheaf(['admin', 'sso', 'remove', '--workspace', companyId, '--json']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.json).toEqual({ removed: true, issuer: 'https://id.example.com' });
      expect(await db.selectFrom('single_sign_on_configs').select('company_id').where('company_id', '=', companyId).execute()).toHaveLength(0);
      const logged = await db.selectFrom('audit_logs').select('action').where('company_id', '=', companyId).where('action', '=', 'sso.removed').execute();
      expect(logged).toHaveLength(1);
      const again = await sheaf(['admin', 'sso', 'remove', '--workspace', companyId]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('was not set up; nothing changed');
      expect((await sheaf(['admin', 'sso', 'show', '--workspace', companyId])).stdout).toContain('Single sign-on is off');
    } finally {
      await db.deleteFrom('single_sign_on_configs').where('company_id', '=', companyId).execute();
    }
  });

  it('needs a workspace id (exit 2) that exists (exit 3)', async () => {
    expect((await sheaf(['admin', 'sso', 'show'])).code).toBe(2);
    expect((await sheaf(['admin', 'sso', 'remove', '--workspace', 'nope'])).code).toBe(2);
    expect((await sheaf(['admin', 'sso', 'remove', '--workspace', '01a23c05-26ad-7264-bac8-db1f861e5acd'])).code).toBe(3);
  });
});

describe('the key at start', () => {
  it('an embedded database without SHEAF_SECRET_KEY gets its own, readable by its owner only, and keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-key-'));
    try {
      const keys: string[] = [];
      const first = await settleSecretKeys(db, keys, { dataDir: dir });
      expect(first.generated).toBe(join(dir, 'secret-key'));
      expect(keys).toHaveLength(1);
      expect(keys[0]!.length).toBeGreaterThanOrEqual(32);
      expect(statSync(join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
      const again: string[] = [];
      expect((await settleSecretKeys(db, again, { dataDir: dir })).generated).toBeNull();
      expect(again).toEqual(keys);
      expect(readEmbeddedSecretKey(dir)).toBe(keys[0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start with no key, or a key that cannot open the secrets stored', async () => {
    const person = await addMember(db, companyId);
    await enrol(person.userId, OLD_KEY);
    try {
      await expect(settleSecretKeys(db, [], null)).rejects.toThrow(/SHEAF_SECRET_KEY is not set/);
      await expect(settleSecretKeys(db, [NEW_KEY], null)).rejects.toThrow(/SHEAF_SECRET_KEY_PREVIOUS/);
      await expect(settleSecretKeys(db, [NEW_KEY, OLD_KEY], null)).resolves.toEqual({ generated: null });
      // An embedded database whose key file was deleted: refused, naming the file and the way out, and no new key is written.
      const dir = mkdtempSync(join(tmpdir(), 'sheaf-key-'));
      try {
        await expect(settleSecretKeys(db, [], { dataDir: dir })).rejects.toThrow(
          `${join(dir, 'secret-key')} is missing, but two-factor secrets are stored encrypted with the key it held: put the file back from a copy of ${dir}`,
        );
        expect(readEmbeddedSecretKey(dir)).toBeNull();
        // One replaced by another key: named as the file, not as SHEAF_SECRET_KEY.
        writeFileSync(join(dir, 'secret-key'), `${NEW_KEY}\n`);
        await expect(settleSecretKeys(db, [], { dataDir: dir })).rejects.toThrow(`${join(dir, 'secret-key')} cannot open the two-factor secrets stored`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await db.deleteFrom('user_two_factor').where('user_id', '=', person.userId).execute();
    }
  });
});
