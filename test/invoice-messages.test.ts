import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { newId } from '../src/ids.ts';
import { loadConfig } from '../src/config.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { transitionInvoice } from '../src/modules/billing/invoices/service.ts';
import { invoiceRenderers } from '../src/modules/billing/invoices/pdf.ts';
import { createSmtpTransport } from '../src/outbox/mailer.ts';
import { deliverDueMessages } from '../src/outbox/worker.ts';
import { MIN_ATTEMPTS, retryDelayMs } from '../src/outbox/retry-policy.ts';
import { startServer } from '../src/server.ts';
import { createTestContext, createWorkspaceWithOwner, DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema, type Caller, type TestContext } from './helpers.ts';
import {
  apiOf,
  billableProject,
  insertCategory,
  insertClient,
  insertEntry,
  insertExpense,
  insertFile,
  makeInvoiceWorkspace,
  type InvoiceWorkspace,
} from './fixtures/invoices.ts';
import { SHEAF_BIN, SharedDatabase } from './cli-runner.ts';
import { headerOf, startSmtp } from './fixtures/smtp.ts';

/**
 * POST/GET /invoices/:id/messages: validation, the state rules of send,
 * reminder and thank-you (paid/closed/voided reached through the operator's
 * commands), the message, outbox job and state change committing together, and
 * delivery over real SMTP (an smtp-server on 127.0.0.1) with the PDF and
 * receipts attached, including a retry after the server was down.
 */

const ROOT = resolve(import.meta.dirname, '..');

// ---------------------------------------------------------------- a small MIME reader (the SMTP sink is test/fixtures/smtp.ts)

interface MimePart {
  headers: Record<string, string>;
  body: Buffer;
  parts: MimePart[];
}

/** Enough MIME for nodemailer's output: folded headers, multipart, base64 and quoted-printable bodies. */
function parseMime(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const rawBody = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const sections = rawBody.split(`--${boundary}`).slice(1);
    const parts = sections.filter((s) => !s.startsWith('--')).map((s) => parseMime(s.replace(/^\r\n/, '')));
    return { headers, body: Buffer.alloc(0), parts };
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(rawBody.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(rawBody.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1')
        : Buffer.from(rawBody, 'latin1');
  return { headers, body, parts: [] };
}

function leaves(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leaves) : [part];
}

const filenameOf = (p: MimePart) => /filename="?([^";]+)"?/.exec(p.headers['content-disposition'] ?? '')?.[1];

// ---------------------------------------------------------------- setup

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
});
afterAll(() => ctx.close());

async function draft(extra: Record<string, unknown> = {}, caller: Caller = w.owner) {
  const res = await api(caller, 'POST', '/api/v2/invoices', {
    client_id: clientId,
    issue_date: '2026-03-01',
    payment_term: 'net_30',
    line_items: [{ description: 'Consulting', quantity: 2, unit_price: 100 }],
    ...extra,
  });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

const to = [{ email: 'bill@globex.test', name: 'Bill Payer' }];
const send = (id: string, body: Record<string, unknown> = {}, caller: Caller = w.owner, headers: Record<string, string> = {}) =>
  api(caller, 'POST', `/api/v2/invoices/${id}/messages`, { recipients: to, ...body }, headers);

async function outboxOf(companyId: string) {
  return ctx.db.selectFrom('outbox').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute();
}

describe('sending', () => {
  it('writes the default subject and body in the client’s language', async () => {
    const german = (await api(w.owner, 'POST', '/api/v2/clients', { name: `Müller ${newId()}`, language: 'de' })).json();
    const inv = await draft({ client_id: german.id, number: `DE-${newId().slice(-6)}` });
    const res = await send(inv.id);
    expect(res.statusCode, res.body).toBe(201);
    const m = res.json();
    expect(m.subject).toBe(`Rechnung ${inv.number} von Acme Studio`);
    expect(m.body).toBe(
      `Guten Tag Bill Payer,\n\nanbei erhalten Sie die Rechnung ${inv.number} über 200,00\u00a0€, fällig am 31. März 2026. Die Rechnung liegt als PDF bei.\n\nMit freundlichen Grüßen\nAcme Studio\n`,
    );
    // The PDF is named in the client's language, as it is written: attached and downloaded.
    const mail = (await outboxOf(w.companyId)).find((o) => (o.payload as { subject: string }).subject === m.subject)!;
    expect((mail.payload as { attachments: Array<{ filename: string }> }).attachments.map((a) => a.filename)).toEqual([`Rechnung-${inv.number}.pdf`]);
    const pdf = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="Rechnung-${inv.number}.pdf"`);
    // What the sender typed is sent as typed, in any language.
    const typed = await send((await draft({ client_id: german.id, number: `DE-${newId().slice(-6)}` })).id, { subject: 'Invoice attached', body: 'Hi!' });
    expect(typed.json()).toMatchObject({ subject: 'Invoice attached', body: 'Hi!' });
  });

  it('greets the one recipient by the name given, else (several, or an address alone) the client as a company', async () => {
    expect((await send((await draft()).id)).json().body).toMatch(/^Hello Bill Payer,\n/);
    expect((await send((await draft()).id, { recipients: [{ email: 'bill@globex.test' }] })).json().body).toMatch(/^Hello,\n\nPlease find/);
    expect((await send((await draft()).id, { recipients: [...to, { email: 'ap@globex.test', name: 'Accounts' }] })).json().body).toMatch(/^Hello,\n/);
    // A name of spaces alone is no name.
    expect((await send((await draft()).id, { recipients: [{ email: 'bill@globex.test', name: '  ' }] })).json().body).toMatch(/^Hello,\n/);
  });

  it('names and signs with the invoice settings’ legal name, as the PDF does, in sends, reminders and thank-yous', async () => {
    const seller = await makeInvoiceWorkspace(ctx.db); // workspace name "Acme Studio"
    await ctx.db.insertInto('invoice_settings').values({ company_id: seller.companyId, legal_name: 'Agentur Blau GmbH' }).execute();
    const buyer = await insertClient(ctx.db, seller.companyId, { name: 'Müller GmbH' });
    await ctx.db.updateTable('clients').set({ language: 'de' }).where('id', '=', buyer).execute();
    const created = await api(seller.owner, 'POST', '/api/v2/invoices', { client_id: buyer, issue_date: '2026-03-01', line_items: [{ description: 'Beratung', quantity: 1, unit_price: 100 }] });
    const inv = created.json();
    const message = async (event_type: string) => {
      const res = await api(seller.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: to, event_type });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { subject: string; body: string };
    };
    const sent = await message('send');
    expect(sent.subject).toBe(`Rechnung ${inv.number} von Agentur Blau GmbH`);
    expect(sent.body).toMatch(/Mit freundlichen Grüßen\nAgentur Blau GmbH\n$/);
    const reminder = await message('reminder');
    expect(reminder.subject).toMatch(/^Erinnerung: Rechnung .* von Agentur Blau GmbH ist (über)?fällig$/);
    expect(reminder.body).toMatch(/\nAgentur Blau GmbH\n$/);
    await transitionInvoice(ctx.db, operatorPrincipal(seller.companyId), inv.id, 'mark-paid', { now: ctx.clock.now() });
    expect((await message('thank_you')).body).toMatch(/\nAgentur Blau GmbH\n$/);
    const mails = await outboxOf(seller.companyId);
    expect(mails.map((m) => (m.payload as { subject: string }).subject).join(' | ')).not.toContain('Acme Studio');
  });

  it('moves a draft to open and records the message and its e-mail together', async () => {
    const inv = await draft();
    const before = (await outboxOf(w.companyId)).length;
    const res = await send(inv.id, { cc_recipients: [{ email: 'accounts@globex.test' }], send_me_a_copy: true });
    expect(res.statusCode).toBe(201);
    const m = res.json();
    expect(m).toMatchObject({
      invoice_id: inv.id,
      event_type: 'send',
      recipients: [{ email: 'bill@globex.test', name: 'Bill Payer' }],
      cc_recipients: [{ email: 'accounts@globex.test', name: null }],
      subject: `Invoice ${inv.number} from Acme Studio`,
      attach_pdf: true,
      attach_expense_receipts: true,
      send_me_a_copy: true,
      sent_by: { id: w.owner.userId, name: 'Olive Owner', email: w.owner.email },
      delivery_status: 'pending',
      delivery_attempts: 0,
      delivered_at: null,
      delivery_error: null,
    });
    expect(m.body).toContain('Hello Bill Payer,');
    expect(m.body).toContain(`invoice ${inv.number} for €200.00, due on 31 March 2026`);

    const after = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(after.state).toBe('open');
    expect(after.sent_at).not.toBeNull();

    const outbox = await outboxOf(w.companyId);
    expect(outbox.length).toBe(before + 1);
    const job = outbox[outbox.length - 1];
    expect(job).toMatchObject({ kind: 'invoice_message', status: 'pending', attempts: 0 });
    expect(job.payload).toMatchObject({
      to: [{ email: 'bill@globex.test', name: 'Bill Payer' }],
      cc: [{ email: 'accounts@globex.test', name: null }],
      bcc: [{ email: w.owner.email, name: 'Olive Owner' }],
      reply_to: { email: w.owner.email, name: 'Olive Owner' },
      subject: m.subject,
      // The e-mail ends with a client link to the invoice; the recorded body is what was written.
      text: `${m.body.trimEnd()}\n\n${(job.payload as { text: string }).text.split('\n\n').pop()}`,
      attachments: [{ filename: `invoice-${inv.number}.pdf`, content_type: 'application/pdf', render: 'invoice_pdf', params: { invoice_id: inv.id } }],
    });
    expect((job.payload as { text: string }).text).toMatch(/\n\nView the invoice, download it and see what is paid online: http:\/\/\S+\/c#[\w-]{43}\n$/);

    const list = await api(w.mgrInvoices, 'GET', `/api/v2/invoices/${inv.id}/messages`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total_entries: 1, page: 1, per_page: 100 });
    expect(list.json().invoice_messages).toEqual([m]);
  });

  it('takes the subject and body given, and leaves attachments out when asked', async () => {
    const inv = await draft();
    const res = await send(inv.id, { subject: 'Your invoice', body: 'See attached.', attach_pdf: false, attach_expense_receipts: false });
    expect(res.json()).toMatchObject({ subject: 'Your invoice', body: 'See attached.', attach_pdf: false, send_me_a_copy: false });
    const job = (await outboxOf(w.companyId)).pop()!;
    expect(job.payload).toMatchObject({ subject: 'Your invoice', attachments: [], bcc: [] });
    expect((job.payload as { text: string }).text).toMatch(/^See attached\.\n\nView the invoice, download it and see what is paid online: http:\/\/\S+\/c#[\w-]{43}\n$/);
  });

  it('checks recipients, cc on thank-yous, subject and body', async () => {
    const inv = await draft();
    const cases: Array<[Record<string, unknown>, string | undefined]> = [
      [{ recipients: [] }, 'recipients'],
      [{ recipients: [{ email: 'not-an-address' }] }, 'recipients.0.email'],
      [{ recipients: [{ email: 'a b@c.test' }] }, 'recipients.0.email'],
      [{ recipients: [{ name: 'No address' }] }, 'recipients.0.email'],
      [{ cc_recipients: [{ email: 'x@' }] }, 'cc_recipients.0.email'],
      [{ event_type: 'thank_you', cc_recipients: [{ email: 'cc@globex.test' }] }, 'cc_recipients'],
      [{ event_type: 'invoice' }, 'event_type'],
      [{ subject: 'Two\nlines' }, 'subject'],
      [{ bcc_recipients: [] }, 'bcc_recipients'],
      [{ attach_pdf: 'yes' }, 'attach_pdf'],
    ];
    for (const [body, field] of cases) {
      const res = await send(inv.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const missing = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('recipients');
    // nothing was sent
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().state).toBe('draft');
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().total_entries).toBe(0);
  });

  it('attaches the receipts of the invoice’s expenses', async () => {
    const { projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '100' });
    await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date: '2026-02-02' });
    const cat = await insertCategory(ctx.db, w.companyId, 'Travel');
    const receipt = await insertFile(ctx.db, w.companyId, { filename: 'taxi.png', contentType: 'image/png', data: Buffer.from('PNG receipt bytes') });
    await insertExpense(ctx.db, w.companyId, { userId: w.member.userId, projectId, categoryId: cat, date: '2026-02-02', cost: '30', receiptFileId: receipt });
    await insertExpense(ctx.db, w.companyId, { userId: w.member.userId, projectId, categoryId: cat, date: '2026-02-03', cost: '5' });
    const inv = (
      await api(w.owner, 'POST', '/api/v2/invoices', {
        client_id: clientId,
        line_items_import: { project_ids: [projectId], time: { summary_type: 'project' }, expenses: { summary_type: 'detailed' } },
      })
    ).json();
    await send(inv.id);
    const job = (await outboxOf(w.companyId)).pop()!;
    expect((job.payload as { attachments: unknown[] }).attachments).toEqual([
      { filename: `invoice-${inv.number}.pdf`, content_type: 'application/pdf', render: 'invoice_pdf', params: { invoice_id: inv.id } },
      { filename: 'taxi.png', content_type: 'image/png', file_id: receipt },
    ]);
  });

  it('replays a send with the same Idempotency-Key instead of sending twice', async () => {
    const inv = await draft();
    const headers = { 'idempotency-key': 'send-invoice-00001' };
    const first = await send(inv.id, {}, w.owner, headers);
    const again = await send(inv.id, {}, w.owner, headers);
    expect(first.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().total_entries).toBe(1);
  });

  it("is for owners, administrators and managers: a manager without view_invoices gets 404 for others' invoices", async () => {
    const inv = await draft();
    for (const who of [w.member, w.contractor, w.memberPersonal, w.adminPersonal]) {
      expect((await send(inv.id, {}, who)).statusCode).toBe(403);
      expect((await api(who, 'GET', `/api/v2/invoices/${inv.id}/messages`)).statusCode).toBe(403);
    }
    for (const who of [w.mgrPlain, w.mgrNoInvoices]) {
      expect((await send(inv.id, {}, who)).statusCode).toBe(404);
      expect((await api(who, 'GET', `/api/v2/invoices/${inv.id}/messages`)).statusCode).toBe(404);
    }
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().state).toBe('draft');
    expect((await send(inv.id, {}, w.mgrInvoices)).statusCode).toBe(201);
    expect((await send(inv.id, {}, w.admin)).statusCode).toBe(201);
  });
});

describe('states', () => {
  it('send: drafts and open invoices (a resend stays open); never paid, closed or voided', async () => {
    const inv = await draft();
    expect((await send(inv.id)).statusCode).toBe(201);
    const resend = await send(inv.id);
    expect(resend.statusCode).toBe(201);
    const after = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(after.state).toBe('open');
    await transitionInvoice(ctx.db, operatorPrincipal(w.companyId), inv.id, 'mark-paid', { now: ctx.clock.now() });
    const paid = await send(inv.id);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ error: 'conflict', state: 'paid' });
  });

  it('reminder: only open invoices with an amount due', async () => {
    const inv = await draft();
    const early = await send(inv.id, { event_type: 'reminder' });
    expect(early.statusCode).toBe(409);
    await send(inv.id);
    const reminder = await send(inv.id, { event_type: 'reminder', cc_recipients: [{ email: 'cfo@globex.test' }] });
    expect(reminder.statusCode).toBe(201);
    expect(reminder.json().subject).toMatch(/^Reminder: invoice .* from Acme Studio is overdue$/);
    expect(reminder.json().body).toContain('€200.00 remains to be paid');
    await transitionInvoice(ctx.db, operatorPrincipal(w.companyId), inv.number, 'mark-paid', { now: ctx.clock.now() });
    expect((await send(inv.id, { event_type: 'reminder' })).statusCode).toBe(409);
  });

  it('a reminder before the due date names the date in its subject and body, in the client\'s language', async () => {
    const early = await draft({ issue_date: '2099-01-01' });
    await send(early.id);
    const reminder = (await send(early.id, { event_type: 'reminder' })).json();
    expect(reminder.subject).toMatch(/^Reminder: invoice .* from Acme Studio is due on 31 January 2099$/);
    expect(reminder.body).toContain('is due on 31 January 2099; €200.00 remains to be paid');
  });

  it('thank_you: only paid invoices', async () => {
    const inv = await draft();
    expect((await send(inv.id, { event_type: 'thank_you' })).statusCode).toBe(409);
    await send(inv.id);
    expect((await send(inv.id, { event_type: 'thank_you' })).statusCode).toBe(409);
    const paid = await transitionInvoice(ctx.db, operatorPrincipal(w.companyId), inv.id, 'mark-paid', { now: ctx.clock.now(), paidDate: '2026-03-20' });
    expect(paid).toMatchObject({ state: 'paid', paid_amount: 200, due_amount: 0 });
    // Paid on the day of its payment, not at the moment it was recorded.
    const zone = (await ctx.db.selectFrom('companies').select('timezone').where('id', '=', w.companyId).executeTakeFirstOrThrow()).timezone;
    expect(paid.paid_at).toBe(DateTime.fromISO('2026-03-20', { zone }).toUTC().toISO({ suppressMilliseconds: false }));
    const thanks = await send(inv.id, { event_type: 'thank_you' });
    expect(thanks.statusCode).toBe(201);
    expect(thanks.json().subject).toBe(`Thank you for your payment of invoice ${inv.number}`);
    const history = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages;
    expect(history.map((m: { event_type: string }) => m.event_type)).toEqual(['send', 'thank_you']);
    const payments = await ctx.db.selectFrom('invoice_payments').select(['amount', 'paid_date']).where('invoice_id', '=', inv.id).execute();
    expect(payments).toEqual([{ amount: '200.00', paid_date: '2026-03-20' }]);
  });

  it('closed and voided invoices take no messages; the operator transitions need an open invoice', async () => {
    const a = await draft();
    await expect(transitionInvoice(ctx.db, operatorPrincipal(w.companyId), a.id, 'close', { now: ctx.clock.now() })).rejects.toMatchObject({ statusCode: 409 });
    await send(a.id);
    expect((await transitionInvoice(ctx.db, operatorPrincipal(w.companyId), a.id, 'close', { now: ctx.clock.now() })).state).toBe('closed');
    const b = await draft();
    await send(b.id);
    expect((await transitionInvoice(ctx.db, operatorPrincipal(w.companyId), b.id, 'void', { now: ctx.clock.now() })).state).toBe('voided');
    for (const id of [a.id, b.id]) {
      for (const event_type of ['send', 'reminder', 'thank_you']) {
        expect((await send(id, { event_type })).statusCode, event_type).toBe(409);
      }
    }
    await expect(transitionInvoice(ctx.db, operatorPrincipal(w.companyId), 'no-such-number', 'void', { now: ctx.clock.now() })).rejects.toMatchObject({ statusCode: 404 });
    const other = await makeInvoiceWorkspace(ctx.db);
    await expect(transitionInvoice(ctx.db, operatorPrincipal(other.companyId), a.id, 'void', { now: ctx.clock.now() })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('records nothing when the state refuses the message', async () => {
    const inv = await draft();
    const messages = await ctx.db.selectFrom('invoice_messages').select('id').where('company_id', '=', w.companyId).execute();
    const outbox = await outboxOf(w.companyId);
    expect((await send(inv.id, { event_type: 'thank_you' })).statusCode).toBe(409);
    expect(await ctx.db.selectFrom('invoice_messages').select('id').where('company_id', '=', w.companyId).execute()).toHaveLength(messages.length);
    expect(await outboxOf(w.companyId)).toHaveLength(outbox.length);
  });
});

describe('delivery over SMTP', () => {
  let sctx: TestContext;
  let ws: InvoiceWorkspace;
  let client: string;
  const sapi = apiOf(() => sctx);

  beforeAll(async () => {
    sctx = await createTestContext(); // its own database: the worker delivers every workspace's messages
    ws = await makeInvoiceWorkspace(sctx.db);
    client = await insertClient(sctx.db, ws.companyId, { name: 'Initech' });
  });
  afterAll(() => sctx.close());

  const deliver = (port: number) =>
    deliverDueMessages({
      db: sctx.db,
      transport: createSmtpTransport(`smtp://127.0.0.1:${port}`, { from: 'Acme Billing <billing@acme.test>' }),
      renderers: invoiceRenderers,
      clock: sctx.clock.now,
      log: { warn: () => {} },
    });

  async function createAndSend(body: Record<string, unknown>) {
    const { projectId, taskId } = await billableProject(sctx.db, ws.companyId, client, { rate: '150' });
    await insertEntry(sctx.db, ws.companyId, { userId: ws.member.userId, projectId, taskId, date: '2026-02-02', seconds: 7200 });
    const cat = await insertCategory(sctx.db, ws.companyId);
    const receipt = await insertFile(sctx.db, ws.companyId, { filename: 'hotel.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 receipt') });
    await insertExpense(sctx.db, ws.companyId, { userId: ws.member.userId, projectId, categoryId: cat, date: '2026-02-02', cost: '99.90', receiptFileId: receipt });
    const inv = (
      await sapi(ws.owner, 'POST', '/api/v2/invoices', {
        client_id: client,
        line_items_import: { project_ids: [projectId], time: { summary_type: 'project' }, expenses: { summary_type: 'project' } },
      })
    ).json();
    const res = await sapi(ws.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, body);
    expect(res.statusCode).toBe(201);
    return { inv, message: res.json() };
  }

  it('delivers the e-mail with the PDF and the receipts to every recipient', async () => {
    const smtp = await startSmtp();
    try {
      const { inv, message } = await createAndSend({
        recipients: [{ email: 'ap@initech.test', name: 'Accounts Payable' }],
        cc_recipients: [{ email: 'boss@initech.test' }],
        subject: 'Invoice for February',
        send_me_a_copy: true,
      });
      expect(await deliver(smtp.port)).toBe(1);
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0];
      expect(mail.from).toBe('billing@acme.test');
      expect(mail.rcpt.sort()).toEqual(['ap@initech.test', 'boss@initech.test', ws.owner.email].sort());
      const top = parseMime(mail.raw);
      expect(top.headers.subject).toBe('Invoice for February');
      expect(top.headers.to).toBe('Accounts Payable <ap@initech.test>');
      expect(top.headers.cc).toBe('boss@initech.test');
      expect(top.headers.bcc).toBeUndefined();
      expect(top.headers['reply-to']).toBe(`Olive Owner <${ws.owner.email}>`);
      const parts = leaves(top);
      const text = parts.find((p) => (p.headers['content-type'] ?? '').startsWith('text/plain'))!;
      expect(text.body.toString('utf8')).toContain('Hello Accounts Payable,');
      const pdf = parts.find((p) => filenameOf(p) === `invoice-${inv.number}.pdf`)!;
      expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
      expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.body.length).toBeGreaterThan(1000);
      const receipt = parts.find((p) => filenameOf(p) === 'hotel.pdf')!;
      expect(receipt.body.toString()).toBe('%PDF-1.4 receipt');

      const history = (await sapi(ws.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages;
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ id: message.id, delivery_status: 'sent', delivery_attempts: 1, delivery_error: null });
      expect(history[0].delivered_at).not.toBeNull();
      // nothing is delivered twice
      expect(await deliver(smtp.port)).toBe(0);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it('retries with backoff after the SMTP server was down, then delivers', async () => {
    // a port with nothing listening: take a free one and close it again
    const probe = await startSmtp();
    const port = probe.port;
    await probe.close();

    const { inv, message } = await createAndSend({ recipients: [{ email: 'ap@initech.test' }], attach_expense_receipts: false });
    expect(await deliver(port)).toBe(0);
    let history = (await sapi(ws.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages;
    expect(history[0]).toMatchObject({ id: message.id, delivery_status: 'pending', delivery_attempts: 1 });
    expect(history[0].delivery_error).toMatch(/ECONNREFUSED|connect/i);
    // not due again before the backoff
    expect(await deliver(port)).toBe(0);
    expect((await sapi(ws.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages[0].delivery_attempts).toBe(1);

    const smtp = await startSmtp(port);
    try {
      sctx.clock.advance(retryDelayMs(1) + 1000);
      expect(await deliver(port)).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].rcpt).toEqual(['ap@initech.test']);
      const attachments = leaves(parseMime(smtp.received[0].raw)).filter((p) => filenameOf(p));
      expect(attachments.map(filenameOf)).toEqual([`invoice-${inv.number}.pdf`]);
      history = (await sapi(ws.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages;
      expect(history[0]).toMatchObject({ delivery_status: 'sent', delivery_attempts: 2, delivery_error: null });
    } finally {
      await smtp.close();
    }
  });
});

describe('delivery that keeps failing', () => {
  it('backs off 1, 2, 4 … minutes up to six hours and marks the message failed (error kept, a warning logged) only after three days', async () => {
    const fctx = await createTestContext(); // its own database: the worker delivers every workspace's messages
    try {
      const fw = await makeInvoiceWorkspace(fctx.db);
      const c = await insertClient(fctx.db, fw.companyId, { name: 'Hooli' });
      const fapi = apiOf(() => fctx);
      const inv = (await fapi(fw.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [{ unit_price: 10 }] })).json();
      const sent = await fapi(fw.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'ap@hooli.test' }] });
      expect(sent.statusCode).toBe(201);
      let calls = 0;
      const refusing = { send: async () => { calls++; throw new Error('451 try again later'); } };
      const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
      const log = { warn: (details: Record<string, unknown>, message: string) => warnings.push({ details, message }) };
      const run = (transport: { send: () => Promise<void> }) =>
        deliverDueMessages({ db: fctx.db, transport, renderers: invoiceRenderers, clock: fctx.clock.now, log });
      const state = async () => (await fapi(fw.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages[0];
      const firstAttempt = fctx.clock.now().getTime();
      for (let attempt = 1; attempt <= MIN_ATTEMPTS; attempt++) {
        expect(await run(refusing)).toBe(0);
        expect(calls).toBe(attempt);
        if (attempt === MIN_ATTEMPTS) break;
        if (attempt === MIN_ATTEMPTS - 1) {
          expect(await state()).toMatchObject({ delivery_status: 'pending', delivery_attempts: attempt, delivery_error: '451 try again later' });
        }
        // due again only once its backoff has passed (checked at a few points: test/unit/outbox-retry-policy.test.ts has the schedule);
        // a message marked failed too early would not be tried again at all
        if ([1, 10, MIN_ATTEMPTS - 1].includes(attempt)) {
          fctx.clock.advance(retryDelayMs(attempt) - 1000);
          expect(await run(refusing)).toBe(0);
          expect(calls).toBe(attempt);
          fctx.clock.advance(1000);
        } else fctx.clock.advance(retryDelayMs(attempt));
      }
      expect(fctx.clock.now().getTime() - firstAttempt).toBeGreaterThanOrEqual(3 * 24 * 3600_000);
      expect(await state()).toMatchObject({ delivery_status: 'failed', delivery_attempts: MIN_ATTEMPTS, delivered_at: null, delivery_error: '451 try again later' });
      // never silently: one warning names the message, its workspace and how to send it again
      expect(warnings).toHaveLength(1);
      expect(warnings[0].details).toMatchObject({ workspace_id: fw.companyId, attempts: MIN_ATTEMPTS, last_error: '451 try again later' });
      expect(warnings[0].message).toContain(`sheaf admin outbox retry ${warnings[0].details.outbox_id}`);
      // a failed message is never picked up again, even by a working transport
      fctx.clock.advance(24 * 3600_000);
      const working = { send: async () => { calls++; } };
      expect(await run(working)).toBe(0);
      expect(calls).toBe(MIN_ATTEMPTS);
      // the invoice stays open: delivery does not undo the send
      expect((await fapi(fw.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().state).toBe('open');
    } finally {
      await fctx.close();
    }
  });
});

describe('the server', () => {
  it('runs the outbox worker when SMTP_URL is set and delivers a sent invoice', async () => {
    const smtp = await startSmtp();
    const schema = DATABASE_URL ? uniqueSchema() : undefined;
    const config = loadConfig(
      {
        LOG_LEVEL: 'silent',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'Served Billing <billing@served.test>',
        ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
      },
      { port: 0, host: '127.0.0.1', dataDir: DATABASE_URL ? null : migratedDataDir(), outboxIntervalMs: 20 }, // the worker looks every 20 ms, not every 5 s
    );
    const running = await startServer(config);
    try {
      const { owner } = await createWorkspaceWithOwner(running.database.db, 'Served');
      const c = await insertClient(running.database.db, owner.companyId, { name: 'Served client' });
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${running.url}${path}`, {
          method,
          headers: { ...owner.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const inv = await (await call('POST', '/api/v2/invoices', { client_id: c, line_items: [{ description: 'Served', unit_price: 10 }] })).json();
      const sent = await call('POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'served@client.test' }] });
      expect(sent.status).toBe(201);
      await smtp.firstMail(15_000);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].rcpt).toEqual(['served@client.test']);
      expect(smtp.received[0].from).toBe('billing@served.test');
      // the Message-ID names the outbox message, at SMTP_FROM's domain (the same on every attempt)
      const job = await running.database.db.selectFrom('outbox').select(['id', 'company_id']).where('company_id', '=', owner.companyId).executeTakeFirstOrThrow();
      expect(headerOf(smtp.received[0].raw, 'Message-ID')).toBe(`<${job.id}.${job.company_id}@served.test>`);
      // the SMTP server has the mail a moment before the worker records the answer
      const status = async () => (await (await call('GET', `/api/v2/invoices/${inv.id}/messages`)).json()).invoice_messages[0].delivery_status;
      await expect.poll(status, { timeout: 10_000 }).toBe('sent');
    } finally {
      await running.close();
      await smtp.close();
      if (schema) await dropSchema(schema);
    }
  });
});

describe('sheaf admin invoice', () => {
  it('lists invoices and marks them paid, closed or voided (exit codes 0, 3, 4)', async () => {
    const dataDir = migratedDataDir();
    const schema = DATABASE_URL ? uniqueSchema() : undefined;
    const env: Record<string, string | undefined> = schema
      ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }
      : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const shared = new SharedDatabase(); // the commands and the inserts below share one open database
    const sheaf = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main([...args, '--json'], { out: (t) => out.push(t), err: (t) => err.push(t), env, openDatabase: shared.open });
      return { code, json: out.length ? JSON.parse(out.join('\n')) : undefined, error: err.length ? JSON.parse(err.join('\n')) : undefined };
    };
    try {
      const ws = (await sheaf('admin', 'workspace', 'create', '--name', 'CLI Invoices', '--currency', 'EUR')).json.id;
      const database = await shared.open(loadConfig(env as Record<string, string>));
      const ids: string[] = [];
      try {
        const c = await insertClient(database.db, ws, { name: 'Cli client' });
        for (const [number, state] of [['1', 'open'], ['2', 'open'], ['3', 'open'], ['4', 'draft']] as const) {
          const id = newId();
          ids.push(id);
          await database.db
            .insertInto('invoices')
            .values({ company_id: ws, id, client_id: c, number, state, issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR', tax: '0', tax2: '0', discount: '0' })
            .execute();
          await database.db
            .insertInto('invoice_line_items')
            .values({ company_id: ws, id: newId(), invoice_id: id, description: 'Work', quantity: '2', unit_price: '60' })
            .execute();
        }
      } finally {
        await database.close();
      }
      const paid = await sheaf('admin', 'invoice', 'mark-paid', '--workspace', ws, '--invoice', '1', '--date', '2026-03-15');
      expect(paid.code).toBe(0);
      expect(paid.json).toMatchObject({ number: '1', state: 'paid', amount: 120, paid_amount: 120, due_amount: 0 });
      expect((await sheaf('admin', 'invoice', 'close', '--workspace', ws, '--invoice', ids[1])).json).toMatchObject({ state: 'closed', due_amount: 120 });
      expect((await sheaf('admin', 'invoice', 'void', '--workspace', ws, '--invoice', '3')).json).toMatchObject({ state: 'voided' });
      const again = await sheaf('admin', 'invoice', 'void', '--workspace', ws, '--invoice', '1');
      expect(again.code).toBe(4);
      expect(again.error.error).toBe('conflict');
      expect((await sheaf('admin', 'invoice', 'mark-paid', '--workspace', ws, '--invoice', '4')).code).toBe(4);
      expect((await sheaf('admin', 'invoice', 'close', '--workspace', ws, '--invoice', '99')).code).toBe(3);
      expect((await sheaf('admin', 'invoice', 'mark-paid', '--workspace', ws, '--invoice', '2', '--date', 'soon')).code).toBe(2);
      const list = await sheaf('admin', 'invoice', 'list', '--workspace', ws);
      expect(list.code).toBe(0);
      expect(list.json.map((i: { number: string; state: string }) => `${i.number}:${i.state}`).sort()).toEqual(['1:paid', '2:closed', '3:voided', '4:draft']);

      // the installed command itself (bin/sheaf.js in its own process), table output
      await shared.close(); // the process opens the data directory itself
      const processEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
      if (!schema) delete processEnv.DATABASE_URL;
      const binary = await new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(process.execPath, [...SHEAF_BIN, 'admin', 'invoice', 'list', '--workspace', ws], { cwd: ROOT, env: processEnv, timeout: 60_000 }, (err, stdout) =>
          resolve({ code: err ? Number(err.code ?? -1) : 0, stdout }),
        );
      });
      expect(binary.code).toBe(0);
      expect(binary.stdout).toMatch(/number\s+state/);
      for (const state of ['paid', 'closed', 'voided', 'draft']) expect(binary.stdout).toContain(state);
      // amounts in the invoice currency's minor units (EUR: 2), not as JSON numbers
      expect(binary.stdout).toMatch(/^\S+\s+1\s+paid\s.*\sEUR\s+120\.00\s+0\.00$/m);
    } finally {
      await shared.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) await dropSchema(schema);
    }
  });
});
