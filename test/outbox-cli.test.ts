import { rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { enqueueMail } from '../src/outbox/enqueue.ts';
import { MIN_ATTEMPTS, retryDelayMs } from '../src/outbox/retry-policy.ts';
import { deliverDueMessages, type Transport } from '../src/outbox/worker.ts';
import { runCli, SharedDatabase } from './cli-runner.ts';
import { createWorkspaceWithOwner, DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema } from './helpers.ts';

/**
 * `sheaf admin outbox list|retry`: the operator sees every queued e-mail
 * (what failed and why, what waits and until when) and sends failed ones
 * again with a fresh three-day schedule; bad input changes nothing. Commands
 * run in-process on one shared database (test/cli-runner.ts), the CLI's own
 * (an embedded one in a temporary directory, or a PostgreSQL schema).
 */

const dataDir = migratedDataDir();
const schema = DATABASE_URL ? uniqueSchema() : undefined;
const env: Record<string, string | undefined> = schema
  ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }
  : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
const shared = new SharedDatabase();
const sheaf = (...args: string[]) => runCli(args, { env, openDatabase: shared.open });

let db: Kysely<DB>;
let acme: string;
let globex: string;
const ids = { acmeFailed: '', acmePending: '', acmeSent: '', globexFailed: '' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MISSING = '01900000-0000-7000-8000-000000000000';

/** A message in the state the worker would have left it, `age` ago. */
async function message(companyId: string, subject: string, state: { status: 'pending' | 'sent' | 'failed'; attempts: number; error?: string; dueIn?: number }, age: number) {
  const created = new Date(Date.now() - age);
  const id = await db.transaction().execute((trx) =>
    enqueueMail(trx, companyId, 'invoice_message', { to: [{ email: 'ap@client.test' }, { email: 'cc@client.test' }], subject, text: 'Hello' }, created),
  );
  await db
    .updateTable('outbox')
    .set({
      status: state.status,
      attempts: state.attempts,
      last_error: state.error ?? null,
      first_attempt_at: state.attempts ? created : null,
      sent_at: state.status === 'sent' ? created : null,
      available_at: new Date(Date.now() + (state.dueIn ?? 0)),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

const outbox = () => db.selectFrom('outbox').selectAll().orderBy('id').execute();

beforeAll(async () => {
  db = (await shared.open(loadConfig(env))).db;
  await migrate(db);
  acme = (await createWorkspaceWithOwner(db, 'Acme')).company.id;
  globex = (await createWorkspaceWithOwner(db, 'Globex')).company.id;
  const smtpError = '550 5.1.1 <ap@client.test>: Recipient address rejected:\r\n user unknown in virtual mailbox table';
  ids.acmeSent = await message(acme, 'Invoice 1 from Acme', { status: 'sent', attempts: 1 }, 5 * DAY);
  ids.acmeFailed = await message(acme, 'Invoice 2 from Acme', { status: 'failed', attempts: MIN_ATTEMPTS, error: smtpError }, 4 * DAY);
  ids.globexFailed = await message(globex, 'Invoice 7 from Globex', { status: 'failed', attempts: MIN_ATTEMPTS, error: '421 try later' }, 3 * DAY + HOUR);
  ids.acmePending = await message(acme, 'Reminder: invoice 3', { status: 'pending', attempts: 3, error: 'ECONNREFUSED', dueIn: 2 * HOUR }, HOUR);
}, 120_000);

afterAll(async () => {
  await shared.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

describe('sheaf admin outbox list', () => {
  it('lists every workspace’s messages newest first with recipients, attempts, status, last error and next attempt', async () => {
    const all = await sheaf('admin', 'outbox', 'list', '--json');
    expect(all.code).toBe(0);
    expect(all.json.map((m: { id: string }) => m.id)).toEqual([ids.acmePending, ids.globexFailed, ids.acmeFailed, ids.acmeSent]);
    expect(all.json[0]).toMatchObject({
      workspace_id: acme,
      kind: 'invoice_message',
      to: ['ap@client.test', 'cc@client.test'],
      subject: 'Reminder: invoice 3',
      status: 'pending',
      attempts: 3,
      last_error: 'ECONNREFUSED',
    });
    expect(new Date(all.json[0].next_attempt_at).getTime()).toBeGreaterThan(Date.now() + HOUR);
    expect(all.json[2]).toMatchObject({ status: 'failed', attempts: MIN_ATTEMPTS, next_attempt_at: null });
    expect(all.json[2].last_error).toContain('user unknown in virtual mailbox table'); // the whole error in --json

    const text = await sheaf('admin', 'outbox', 'list', '--status', 'failed');
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['id', 'workspace', 'kind', 'to', 'subject', 'attempts', 'status', 'last_error', 'next_attempt']);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(ids.globexFailed);
    expect(lines[2]).toContain(ids.acmeFailed);
    expect(lines[2]).toContain('ap@client.test +1');
    expect(lines[2]).toContain('550 5.1.1 <ap@client.test>: Recipient address rejected: use…'); // one line, cut short
    expect(lines[2]).not.toContain('virtual mailbox table');
  });

  it('filters by status and workspace, and says when older messages were left out', async () => {
    const acmeFailed = await sheaf('admin', 'outbox', 'list', '--status', 'failed', '--workspace', acme, '--json');
    expect(acmeFailed.json.map((m: { id: string }) => m.id)).toEqual([ids.acmeFailed]);
    const sent = await sheaf('admin', 'outbox', 'list', '--status', 'sent', '--json');
    expect(sent.json.map((m: { id: string }) => m.id)).toEqual([ids.acmeSent]);
    const newest = await sheaf('admin', 'outbox', 'list', '--limit', '1');
    expect(newest.stdout).toContain(ids.acmePending);
    expect(newest.stdout).toContain('(the newest 1; older ones with --limit N)');
    expect((await sheaf('admin', 'outbox', 'list', '--workspace', globex, '--status', 'sent')).stdout.trim()).toBe('(none)');
  });

  it('refuses bad options (exit 2) and an unknown workspace (exit 3)', async () => {
    const status = await sheaf('admin', 'outbox', 'list', '--status', 'bounced', '--json');
    expect(status.code).toBe(2);
    expect(status.error.message).toBe("--status must be pending, sent or failed, not 'bounced'.");
    for (const args of [['--workspace', 'acme'], ['--limit', '0'], ['--limit', 'ten'], ['--limit', '10001']]) {
      const res = await sheaf('admin', 'outbox', 'list', ...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(args[0]);
    }
    const unknown = await sheaf('admin', 'outbox', 'list', '--workspace', MISSING, '--json');
    expect(unknown.code).toBe(3);
    expect(unknown.error).toMatchObject({ error: 'not_found', field: 'workspace' });
  });
});

describe('sheaf admin outbox retry', () => {
  it('refuses bad input and unknown or sent messages, changing nothing', async () => {
    const before = await outbox();
    const cases: Array<[string[], number, string]> = [
      [[], 2, 'Name the message to retry'],
      [['not-an-id'], 2, "must be an outbox message id (see \"sheaf admin outbox list\"), not 'not-an-id'"],
      [[ids.acmeFailed, '--all-failed'], 2, 'not both'],
      [[ids.acmeFailed, ids.globexFailed], 2, `Unexpected argument '${ids.globexFailed}'`],
      [['--all-failed', '--workspace', 'acme'], 2, '--workspace must be a workspace id'],
      [[MISSING], 3, `No outbox message ${MISSING}`],
      [[ids.globexFailed, '--workspace', acme], 3, `No outbox message ${ids.globexFailed} in this workspace`],
      [['--all-failed', '--workspace', MISSING], 3, `No workspace with id ${MISSING}`],
      [[ids.acmeSent], 4, 'was already sent'],
    ];
    for (const [args, code, message] of cases) {
      const res = await sheaf('admin', 'outbox', 'retry', ...args);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stderr, args.join(' ')).toContain(message);
      expect(res.stdout).toBe('');
    }
    expect(await outbox()).toEqual(before);
  });

  it('makes a failed message due now with a fresh schedule: its next failure waits a minute instead of failing it again at once', async () => {
    const res = await sheaf('admin', 'outbox', 'retry', ids.acmeFailed, '--json');
    expect(res.code).toBe(0);
    expect(res.json).toEqual([{ id: ids.acmeFailed, workspace_id: acme, previous_status: 'failed', previous_attempts: MIN_ATTEMPTS }]);
    const row = await db.selectFrom('outbox').selectAll().where('id', '=', ids.acmeFailed).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 0, first_attempt_at: null });
    expect(row.available_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(row.last_error).toContain('550 5.1.1'); // kept until the next attempt says more
    const auditEntry = await db.selectFrom('audit_logs').selectAll().where('company_id', '=', acme).where('subject_id', '=', ids.acmeFailed).executeTakeFirstOrThrow();
    expect(auditEntry).toMatchObject({ action: 'outbox.retried', subject_type: 'outbox', actor_user_id: null });
    expect(auditEntry.details).toEqual({ previous_status: 'failed', previous_attempts: MIN_ATTEMPTS });

    // Without the reset (21 attempts, the first four days ago) this failure would mark it failed for good.
    const sends: string[] = [];
    const refusing: Transport = { send: async (_m, _a, ref) => { sends.push(ref.outboxId); throw new Error('451 greylisted'); } };
    const now = new Date();
    expect(await deliverDueMessages({ db, transport: refusing, renderers: {}, clock: () => now, log: { warn: () => {} } })).toBe(0);
    expect(sends).toEqual([ids.acmeFailed]); // the other failed ones and the waiting one stay as they were
    const after = await db.selectFrom('outbox').selectAll().where('id', '=', ids.acmeFailed).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'pending', attempts: 1, last_error: '451 greylisted', first_attempt_at: now });
    expect(after.available_at.getTime() - now.getTime()).toBe(retryDelayMs(1));
  });

  it('sends a waiting message now; --all-failed retries every failed one, or one workspace’s', async () => {
    const waiting = await sheaf('admin', 'outbox', 'retry', ids.acmePending);
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).toContain('This e-mail is due now, with a fresh retry schedule');
    expect(waiting.stdout).toContain(ids.acmePending);
    expect((await db.selectFrom('outbox').select('available_at').where('id', '=', ids.acmePending).executeTakeFirstOrThrow()).available_at.getTime()).toBeLessThanOrEqual(Date.now());

    // only Acme's failed messages: it has none left, Globex keeps its failed one
    await db.updateTable('outbox').set({ status: 'failed' }).where('id', '=', ids.acmeFailed).execute();
    const acmeOnly = await sheaf('admin', 'outbox', 'retry', '--all-failed', '--workspace', acme, '--json');
    expect(acmeOnly.code).toBe(0);
    expect(acmeOnly.json.map((r: { id: string }) => r.id)).toEqual([ids.acmeFailed]);
    expect((await db.selectFrom('outbox').select('status').where('id', '=', ids.globexFailed).executeTakeFirstOrThrow()).status).toBe('failed');

    const all = await sheaf('admin', 'outbox', 'retry', '--all-failed');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(ids.globexFailed);
    expect((await sheaf('admin', 'outbox', 'list', '--status', 'failed', '--json')).json).toEqual([]);
    const none = await sheaf('admin', 'outbox', 'retry', '--all-failed');
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toBe('No failed e-mails to retry.');
  });
});
