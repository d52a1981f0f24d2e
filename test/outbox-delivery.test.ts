import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { enqueueMail } from '../src/outbox/enqueue.ts';
import { createSmtpTransport, type SmtpTransport } from '../src/outbox/mailer.ts';
import { LEASE_MS } from '../src/outbox/retry-policy.ts';
import { deliverDueMessages, type Transport } from '../src/outbox/worker.ts';
import { ROOT, RUN_TS } from './cli-runner.ts';
import { headerOf, startSmtp } from './fixtures/smtp.ts';
import { createWorkspaceWithOwner, DATABASE_URL, openTestDatabase, TestClock } from './helpers.ts';

/**
 * The outbox's delivery guarantee: at least once, with duplicates the
 * recipient's mail system can recognise. A worker that dies after the SMTP
 * server accepted a message but before marking it sent leaves its claim to
 * expire; the next worker sends the message again, with the same Message-ID.
 * Shown with an SMTP sink (smtp-server on 127.0.0.1): in-process, a worker
 * frozen for good right after the server's 250 (on both databases), and on
 * PostgreSQL a real worker process killed with SIGKILL at that moment.
 * The tests share one database and leave no message due.
 */

const FROM = 'Acme Billing <billing@acme.test>';
const quiet = { warn: () => {} };

let database: Database & { schema?: string };
let companyId: string;
let sink: Awaited<ReturnType<typeof startSmtp>>;
let smtp: SmtpTransport;
const clock = new TestClock();

beforeAll(async () => {
  database = await openTestDatabase(); // the worker delivers every workspace's messages: a database of its own
  companyId = (await createWorkspaceWithOwner(database.db, 'Mailer')).company.id;
  sink = await startSmtp();
  smtp = createSmtpTransport(`smtp://127.0.0.1:${sink.port}`, { from: FROM });
});
afterAll(async () => {
  smtp?.close();
  await sink?.close();
  await database?.close();
});

const enqueue = (subject: string, now = clock.now()) =>
  database.db.transaction().execute((trx) => enqueueMail(trx, companyId, 'test', { to: [{ email: 'client@example.test' }], subject, text: 'Hello' }, now));

const worker = (transport: Transport, now = clock.now) => deliverDueMessages({ db: database.db, transport, renderers: {}, clock: now, log: quiet });

const rowOf = (id: string) =>
  database.db.selectFrom('outbox').select(['status', 'attempts', 'sent_at', 'last_error']).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirstOrThrow();

const messageId = (id: string) => `<${id}.${companyId}@acme.test>`;

describe('a worker that dies after the SMTP server accepted a message', () => {
  it('leaves it to be sent again once its claim expires, with the same Message-ID', async () => {
    const id = await enqueue('Invoice 1 from Acme');
    const before = sink.received.length;
    let accepted!: () => void;
    const acceptedByServer = new Promise<void>((resolve) => (accepted = resolve));
    // Frozen for good right after the server's 250: from the database's side, a worker killed before marking the message sent.
    const dying: Transport = {
      async send(message, attachments, ref) {
        await smtp.send(message, attachments, ref);
        accepted();
        await new Promise(() => {});
      },
    };
    void worker(dying);
    await acceptedByServer;
    expect(sink.received).toHaveLength(before + 1);
    expect(await rowOf(id)).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });

    // While the claim holds, no other worker sends it.
    clock.advance(LEASE_MS - 1000);
    expect(await worker(smtp)).toBe(0);
    expect(sink.received).toHaveLength(before + 1);

    // Once it expired, the next worker sends it again: the recipient gets the same message twice, with one Message-ID.
    clock.advance(2000);
    expect(await worker(smtp)).toBe(1);
    expect(sink.received).toHaveLength(before + 2);
    const [first, second] = sink.received.slice(before);
    expect(headerOf(first.raw, 'Message-ID')).toBe(messageId(id));
    expect(headerOf(second.raw, 'Message-ID')).toBe(messageId(id));
    expect(headerOf(second.raw, 'Subject')).toBe('Invoice 1 from Acme');
    expect(second.rcpt).toEqual(first.rcpt);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });

    // and never again
    clock.advance(LEASE_MS * 10);
    expect(await worker(smtp)).toBe(0);
    expect(sink.received).toHaveLength(before + 2);
  });

  it('a slow worker whose claims expired leaves the messages it had not started to the worker that took them over', async () => {
    const firstId = await enqueue('Slow 1');
    clock.advance(1); // due one after the other
    const secondId = await enqueue('Slow 2');
    const before = sink.received.length;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    const slowSends: string[] = [];
    // Worker A claims both, then takes longer than a claim lasts over the first (rendering, a slow server).
    const slow: Transport = {
      async send(message, attachments, ref) {
        slowSends.push(ref.outboxId);
        started();
        await released;
        await smtp.send(message, attachments, ref);
      },
    };
    const a = worker(slow);
    await slowStarted;
    clock.advance(LEASE_MS + 1000);
    // Worker B finds both claims expired and sends both.
    expect(await worker(smtp)).toBe(2);
    release();
    // A finishes the send it had started (a duplicate, with the same Message-ID) and does not send the second.
    expect(await a).toBe(1);
    expect(slowSends).toEqual([firstId]);
    const ids = sink.received.slice(before).map((m) => headerOf(m.raw, 'Message-ID'));
    expect(ids.sort()).toEqual([messageId(firstId), messageId(firstId), messageId(secondId)].sort());
    expect(await rowOf(firstId)).toMatchObject({ status: 'sent' });
    expect(await rowOf(secondId)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe.skipIf(!DATABASE_URL)('a worker process killed (SIGKILL) after the SMTP server accepted a message', () => {
  it('leaves the message pending; the next worker sends it again after the claim, with the same Message-ID', async () => {
    const now = () => new Date(); // the child runs on the real clock
    const id = await enqueue('Invoice 2 from Acme', now());
    const before = sink.received.length;
    const child = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
      const env = { ...process.env, DATABASE_URL, DATABASE_SCHEMA: database.schema, SMTP_URL: `smtp://127.0.0.1:${sink.port}`, SMTP_FROM: FROM };
      const proc = execFile(process.execPath, [...RUN_TS, 'test/fixtures/dying-outbox-worker.ts'], { cwd: ROOT, env, timeout: 30_000 }, (_err, _out, stderr) =>
        resolve({ code: proc.exitCode, signal: proc.signalCode, stderr }),
      );
    });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(sink.received).toHaveLength(before + 1);
    expect(await rowOf(id)).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });

    expect(await worker(smtp, now)).toBe(0); // its claim still holds
    expect(await worker(smtp, () => new Date(Date.now() + LEASE_MS + 1000))).toBe(1);
    const [first, second] = sink.received.slice(before);
    expect(headerOf(first.raw, 'Message-ID')).toBe(messageId(id));
    expect(headerOf(second.raw, 'Message-ID')).toBe(messageId(id));
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
