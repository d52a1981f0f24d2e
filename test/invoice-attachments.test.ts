import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { invoiceRenderers } from '../src/modules/billing/invoices/pdf.ts';
import { ATTACHMENTS_PER_INVOICE_MAX } from '../src/modules/billing/invoice-attachments/rules.ts';
import { UPLOAD_MAX_BYTES } from '../src/modules/workspace/files/index.ts';
import { createSmtpTransport } from '../src/outbox/mailer.ts';
import { deliverDueMessages } from '../src/outbox/worker.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { multipartBody, SAMPLE_FILES } from './fixtures/expenses-catalog.ts';
import { insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import { startSmtp } from './fixtures/smtp.ts';

/**
 * Invoice attachments (issue 25 item 4): uploaded in the web app with the receipts'
 * checks (10 MiB, PDF/PNG/JPEG/GIF/HEIC by bytes and declared type), listed and
 * removed there, downloaded through the spec's download_url with their content type,
 * chosen per e-mail (sent exactly once, with them), and exported by the backup.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
let clientId: string;
let otherClient: string;
const s = {} as Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller>;
let otherOwner: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  otherClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
}, 120_000);
afterAll(() => ctx.close());

type File = { filename: string; type?: string; data: Buffer; field?: string };

async function invoice(caller: Caller = w.owner, client = clientId) {
  const res = await request(ctx.app, caller, {
    method: 'POST',
    url: '/api/v2/invoices',
    payload: { client_id: client, issue_date: '2026-03-01', line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] },
  });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

async function upload(caller: Caller, invoiceId: string, file: File, fields: Record<string, string> = {}) {
  const { payload, headers } = await multipartBody(fields, { field: 'file', ...file });
  return request(ctx.app, caller, { method: 'POST', url: `/web/api/invoices/${invoiceId}/attachments`, payload, headers });
}
const list = (caller: Caller, invoiceId: string) => request(ctx.app, caller, { method: 'GET', url: `/web/api/invoices/${invoiceId}/attachments` });
const remove = (caller: Caller, invoiceId: string, id: string) =>
  request(ctx.app, caller, { method: 'DELETE', url: `/web/api/invoices/${invoiceId}/attachments/${id}` });
const download = (caller: Caller, invoiceId: string, id: string) =>
  request(ctx.app, caller, { method: 'GET', url: `/api/v2/invoices/${invoiceId}/attachments/${id}/download` });
const fileCount = async (companyId = w.companyId) =>
  Number((await ctx.db.selectFrom('files').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);

describe('uploading', () => {
  it('stores each accepted type; the download returns the identical bytes, type and name, privately', async () => {
    const id = await invoice();
    const types = [
      ['png', 'image/png', 'plan.png'],
      ['jpeg', 'image/jpeg', 'site.jpg'],
      ['gif', 'image/gif', 'scan.gif'],
      ['pdf', 'application/pdf', 'Vertrag Zürich.pdf'],
      ['heic', 'image/heic', 'IMG_0001.HEIC'],
    ] as const;
    for (const [kind, type, filename] of types) {
      const data = SAMPLE_FILES[kind];
      const res = await upload(s.owner, id, { filename, type, data });
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
      const a = res.json();
      expect(a).toMatchObject({ invoice_id: id, file_name: filename, content_type: type, byte_size: data.length });
      expect(a.download_url).toBe(`/api/v2/invoices/${id}/attachments/${a.id}/download`);
      expect(Object.keys(a).sort()).toEqual(['byte_size', 'content_type', 'created_at', 'download_url', 'file_name', 'id', 'invoice_id']);
      const got = await download(w.owner, id, a.id);
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(data)).toBe(true);
      expect(got.headers['content-type']).toBe(type);
      expect(got.headers['content-length']).toBe(String(data.length));
      expect(got.headers['cache-control']).toBe('private, no-store');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
    }
    const listed = await list(s.owner, id);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().attachments.map((a: { file_name: string }) => a.file_name)).toEqual(types.map(([, , name]) => name));
    // An undeclared type is taken from the bytes.
    const undeclared = await upload(s.owner, id, { filename: 'photo', type: 'application/octet-stream', data: SAMPLE_FILES.jpeg });
    expect(undeclared.json()).toMatchObject({ file_name: 'photo', content_type: 'image/jpeg' });
  });

  it('refuses what receipts refuse: 415 for other types, 400 when declared and detected types disagree or the file is empty; nothing is stored', async () => {
    const id = await invoice();
    const files = await fileCount();
    for (const [file, status] of [
      [{ filename: 'notes.txt', type: 'text/plain', data: SAMPLE_FILES.text }, 415],
      [{ filename: 'a.png', type: 'image/png', data: SAMPLE_FILES.text }, 415],
      [{ filename: 'a.svg', type: 'image/svg+xml', data: Buffer.from('<svg/>') }, 415],
      [{ filename: 'a.bin', type: 'application/octet-stream', data: SAMPLE_FILES.text }, 415],
      [{ filename: 'a.png', type: 'image/png', data: SAMPLE_FILES.pdf }, 400],
      [{ filename: 'a.png', type: 'image/png', data: Buffer.alloc(0) }, 400],
    ] as const) {
      const res = await upload(s.owner, id, file);
      expect(res.statusCode, `${file.type} ${file.filename}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ field: 'file' });
      if (status === 415) expect(res.json()).toMatchObject({ error: 'unsupported_media_type', message: expect.stringMatching(/^An attachment must be a PDF, PNG, JPEG, GIF or HEIC file/) });
    }
    // Other parts and bodies: a file part of another name, an extra field, a JSON body, no file.
    const wrongPart = await upload(s.owner, id, { field: 'receipt', filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf });
    expect(wrongPart.statusCode).toBe(400);
    expect(wrongPart.json()).toMatchObject({ error: 'unknown_field', field: 'receipt' });
    const extra = await upload(s.owner, id, { filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf }, { note: 'x' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ field: 'note' });
    const json = await request(ctx.app, s.owner, { method: 'POST', url: `/web/api/invoices/${id}/attachments`, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ field: 'file' });
    const { payload, headers } = await multipartBody({});
    const none = await request(ctx.app, s.owner, { method: 'POST', url: `/web/api/invoices/${id}/attachments`, payload, headers });
    expect(none.statusCode).toBe(400);
    expect(await fileCount()).toBe(files);
    expect((await list(s.owner, id)).json().attachments).toEqual([]);
  });

  it('a file over 10 MiB is 413 naming the part, and nothing is stored', async () => {
    const id = await invoice();
    const files = await fileCount();
    const big = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - SAMPLE_FILES.png.length, 7)]);
    const res = await upload(s.owner, id, { filename: 'big.png', type: 'image/png', data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large', field: 'file' });
    expect(res.json().message).toMatch(/10 MiB/);
    expect(await fileCount()).toBe(files);
  }, 180_000);

  it(`takes at most ${ATTACHMENTS_PER_INVOICE_MAX} per invoice (409), also when uploads arrive at once`, async () => {
    const id = await invoice();
    const results = await Promise.all(
      Array.from({ length: ATTACHMENTS_PER_INVOICE_MAX + 2 }, (_, i) => upload(s.owner, id, { filename: `f${i}.pdf`, type: 'application/pdf', data: SAMPLE_FILES.pdf })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(ATTACHMENTS_PER_INVOICE_MAX);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(2);
    expect((await list(s.owner, id)).json().attachments).toHaveLength(ATTACHMENTS_PER_INVOICE_MAX);
  }, 120_000);
});

describe('who may', () => {
  it('whoever may see the invoice: owners, administrators, managers in reach; members 403; API keys on the web routes 403', async () => {
    const id = await invoice();
    const own = await upload(s.mgrInvoices, id, { filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf });
    expect(own.statusCode, own.body).toBe(201);
    const a = own.json();
    expect((await upload(s.admin, id, { filename: 'b.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).statusCode).toBe(201);
    // A manager without View invoices does not see another's invoice: 404, as for an unknown one.
    expect((await upload(s.mgrPlain, id, { filename: 'c.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).statusCode).toBe(404);
    expect((await list(s.mgrPlain, id)).statusCode).toBe(404);
    expect((await download(w.mgrPlain, id, a.id)).statusCode).toBe(404);
    expect((await remove(s.mgrPlain, id, a.id)).statusCode).toBe(404);
    // Members never use invoices.
    expect((await upload(s.member, id, { filename: 'c.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).statusCode).toBe(403);
    expect((await list(s.member, id)).statusCode).toBe(403);
    expect((await download(w.member, id, a.id)).statusCode).toBe(403);
    expect((await download(w.memberPersonal, id, a.id)).statusCode).toBe(403);
    // The web routes take a browser session only; the download is the API's.
    const keyed = await list(w.owner, id);
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json().error).toBe('session_required');
    expect((await download(w.mgrInvoices, id, a.id)).statusCode).toBe(200);
  });

  it("another workspace's invoices and attachments are 404, and so is an attachment named under another invoice", async () => {
    const id = await invoice();
    const a = (await upload(s.owner, id, { filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    const theirs = await invoice(other.owner, otherClient);
    const b = (await upload(otherOwner, theirs, { filename: 'b.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    const files = await fileCount(other.companyId);
    for (const res of [
      await upload(s.owner, theirs, { filename: 'x.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf }),
      await list(s.owner, theirs),
      await download(w.owner, theirs, b.id),
      await download(w.owner, id, b.id),
      await remove(s.owner, theirs, b.id),
      await remove(s.owner, id, b.id),
      await download(w.owner, id, 'not-an-id'),
      await download(w.owner, newId(), a.id),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    // An attachment of one invoice is not found under another invoice of the same workspace.
    const second = await invoice();
    expect((await download(w.owner, second, a.id)).statusCode).toBe(404);
    expect((await remove(s.owner, second, a.id)).statusCode).toBe(404);
    expect(await fileCount(other.companyId)).toBe(files);
    expect((await download(other.owner, theirs, b.id)).statusCode).toBe(200);
  });
});

describe('removing', () => {
  it('removes the attachment and its file, in a draft and in a sent invoice', async () => {
    const id = await invoice();
    const a = (await upload(s.owner, id, { filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    const b = (await upload(s.owner, id, { filename: 'b.png', type: 'image/png', data: SAMPLE_FILES.png })).json();
    const files = await fileCount();
    const gone = await remove(s.owner, id, a.id);
    expect(gone.statusCode).toBe(204);
    expect(await fileCount()).toBe(files - 1);
    expect((await download(w.owner, id, a.id)).statusCode).toBe(404);
    expect((await list(s.owner, id)).json().attachments.map((x: { id: string }) => x.id)).toEqual([b.id]);
    // Sent (the e-mail carries none of them), then removed: Harvest-style, at any time.
    const sent = await request(ctx.app, w.owner, { method: 'POST', url: `/api/v2/invoices/${id}/messages`, payload: { recipients: [{ email: 'ap@globex.test' }] } });
    expect(sent.statusCode).toBe(201);
    expect((await remove(s.owner, id, b.id)).statusCode).toBe(204);
    expect(await fileCount()).toBe(files - 2);
    const audit = await ctx.db.selectFrom('audit_logs').select(['action', 'details']).where('subject_id', '=', id).where('action', 'like', 'invoice.attachment%').orderBy('occurred_at').execute();
    expect(audit.map((r) => r.action)).toEqual(['invoice.attachment_added', 'invoice.attachment_added', 'invoice.attachment_removed', 'invoice.attachment_removed']);
  });

  it('keeps a file an e-mail waiting in the outbox carries (409), and lets it go once the e-mail went', async () => {
    const id = await invoice();
    const a = (await upload(s.owner, id, { filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    const sent = await request(ctx.app, w.owner, {
      method: 'POST',
      url: `/api/v2/invoices/${id}/messages`,
      payload: { recipients: [{ email: 'ap@globex.test' }], attachment_ids: [a.id] },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const refused = await remove(s.owner, id, a.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('conflict');
    expect((await download(w.owner, id, a.id)).statusCode).toBe(200);
    const job = await ctx.db.selectFrom('invoice_messages').select('outbox_id').where('id', '=', sent.json().id).executeTakeFirstOrThrow();
    await ctx.db.updateTable('outbox').set({ status: 'sent', sent_at: new Date() }).where('id', '=', job.outbox_id!).execute();
    expect((await remove(s.owner, id, a.id)).statusCode).toBe(204);
  });
});

describe('sending with attachments', () => {
  it('names the chosen ones in the message; an unknown, foreign or repeated id is 400 naming it, and nothing is queued', async () => {
    const id = await invoice();
    const a = (await upload(s.owner, id, { filename: 'terms.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    const b = (await upload(s.owner, id, { filename: 'plan.png', type: 'image/png', data: SAMPLE_FILES.png })).json();
    const elsewhere = await invoice();
    const c = (await upload(s.owner, elsewhere, { filename: 'other.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    const outbox = async () => Number((await ctx.db.selectFrom('outbox').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow()).n);
    const before = await outbox();
    const send = (attachment_ids: unknown) =>
      request(ctx.app, w.owner, { method: 'POST', url: `/api/v2/invoices/${id}/messages`, payload: { recipients: [{ email: 'ap@globex.test' }], attachment_ids } });
    for (const [ids, field] of [
      [[c.id], 'attachment_ids.0'],
      [[a.id, newId()], 'attachment_ids.1'],
      [[a.id, a.id], 'attachment_ids.1'],
      [['nope'], 'attachment_ids.0'],
    ] as const) {
      const res = await send(ids);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await send('x')).statusCode).toBe(400);
    expect(await outbox()).toBe(before);
    expect((await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${id}` })).json().state).toBe('draft');

    const res = await send([b.id, a.id]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().attachments).toEqual([
      { id: b.id, file_name: 'plan.png' },
      { id: a.id, file_name: 'terms.pdf' },
    ]);
    const job = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', w.companyId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const payload = job.payload as { attachments: Array<Record<string, unknown>> };
    expect(payload.attachments.map((x) => x.filename)).toEqual([`invoice-${(await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${id}` })).json().number}.pdf`, 'plan.png', 'terms.pdf']);
    const history = (await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${id}/messages` })).json().invoice_messages;
    expect(history[0].attachments).toEqual(res.json().attachments);
  });

  it('delivers the e-mail once, with the chosen attachments, even with two workers at once', async () => {
    const dctx = await createTestContext(); // its own database: the worker delivers every workspace's messages
    const smtp = await startSmtp();
    try {
      const dw = await makeInvoiceWorkspace(dctx.db);
      const dclient = await insertClient(dctx.db, dw.companyId, { name: 'Initech' });
      const owner = await sessionFor(dctx.db, dw.owner, dctx.clock.now());
      const inv = (
        await request(dctx.app, dw.owner, { method: 'POST', url: '/api/v2/invoices', payload: { client_id: dclient, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] } })
      ).json();
      const put = async (file: File) => {
        const { payload, headers } = await multipartBody({}, { field: 'file', ...file });
        return (await request(dctx.app, owner, { method: 'POST', url: `/web/api/invoices/${inv.id}/attachments`, payload, headers })).json();
      };
      const terms = await put({ filename: 'terms.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf });
      await put({ filename: 'not-sent.png', type: 'image/png', data: SAMPLE_FILES.png });
      const sent = await request(dctx.app, dw.owner, {
        method: 'POST',
        url: `/api/v2/invoices/${inv.id}/messages`,
        payload: { recipients: [{ email: 'ap@initech.test' }], attachment_ids: [terms.id], attach_pdf: false },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const deliver = () =>
        deliverDueMessages({
          db: dctx.db,
          transport: createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`, { from: 'Acme Billing <billing@acme.test>' }),
          renderers: invoiceRenderers,
          clock: dctx.clock.now,
          log: { warn: () => {} },
        });
      const counts = await Promise.all([deliver(), deliver()]);
      expect(counts[0] + counts[1]).toBe(1);
      expect(await deliver()).toBe(0);
      expect(smtp.received).toHaveLength(1);
      const raw = smtp.received[0].raw;
      expect(raw).toContain('filename=terms.pdf');
      expect(raw).not.toContain('not-sent.png');
      expect(raw).toContain(SAMPLE_FILES.pdf.toString('base64').slice(0, 40));
      const history = (await request(dctx.app, dw.owner, { method: 'GET', url: `/api/v2/invoices/${inv.id}/messages` })).json().invoice_messages;
      expect(history[0]).toMatchObject({ delivery_status: 'sent', delivery_attempts: 1, attachments: [{ id: terms.id, file_name: 'terms.pdf' }] });
    } finally {
      await smtp.close();
      await dctx.close();
    }
  }, 120_000);
});

describe('backup', () => {
  it('exports every attachment with its download_url, the messages with what they carried, and nothing secret', async () => {
    const id = await invoice();
    const a = (await upload(s.owner, id, { filename: 'terms.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf })).json();
    await request(ctx.app, w.owner, { method: 'POST', url: `/api/v2/invoices/${id}/messages`, payload: { recipients: [{ email: 'ap@globex.test' }], attachment_ids: [a.id] } });
    const records: Array<Record<string, any>> = [];
    let url: string | null = '/api/v2/backup/invoices?per_page=500';
    while (url) {
      const page = await request(ctx.app, w.owner, { method: 'GET', url });
      expect(page.statusCode, page.body).toBe(200);
      records.push(...page.json().records);
      url = page.json().links.next;
    }
    const record = records.find((r) => r.id === id)!;
    expect(record.attachments).toEqual([
      {
        id: a.id,
        invoice_id: id,
        file_name: 'terms.pdf',
        content_type: 'application/pdf',
        byte_size: SAMPLE_FILES.pdf.length,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        uploaded_by: w.owner.userId,
        created_at: expect.any(String),
        download_url: `/api/v2/invoices/${id}/attachments/${a.id}/download`,
      },
    ]);
    expect(record.messages[0].attachments).toEqual([{ id: a.id, file_name: 'terms.pdf' }]);
    const text = JSON.stringify(record);
    const file = await ctx.db.selectFrom('invoice_attachments').select('file_id').where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(text).not.toContain(file.file_id);
    expect(text).not.toContain('/c#');
    // The link downloads the bytes with the owner's key, as the spec says.
    const got = await request(ctx.app, w.owner, { method: 'GET', url: record.attachments[0].download_url });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    // Other invoices say attachments: [] (the shape is stable).
    expect(records.filter((r) => r.id !== id).every((r) => Array.isArray(r.attachments))).toBe(true);
  });
});
