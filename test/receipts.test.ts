import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { RECEIPT_MAX_BYTES, formToBody, receiptContentType, safeFileName } from '../src/modules/tracking/expenses/receipts.ts';
import { normalizeDeclaredType, sniffUpload } from '../src/modules/workspace/files/index.ts';
import {
  insertApprovedTime,
  insertExpenseRow,
  makeExpenseWorkspace,
  multipartBody,
  SAMPLE_FILES,
  type ExpenseWorkspace,
} from './fixtures/expenses-catalog.ts';
import { createTestContext, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Receipts (DESIGN.md "Receipts"; spec: receipt_download_url and
 * GET /expenses/:expense_id/receipt): multipart/form-data on POST and PATCH,
 * the file checks (10 MiB, PDF/PNG/JPEG/GIF/HEIC by magic bytes and declared
 * type), storage in `files` in the expense's transaction, and the download.
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('receipt rules (pure)', () => {
  it('recognises each accepted type by its magic bytes, and nothing else', () => {
    expect(sniffUpload(SAMPLE_FILES.png)).toBe('image/png');
    expect(sniffUpload(SAMPLE_FILES.jpeg)).toBe('image/jpeg');
    expect(sniffUpload(SAMPLE_FILES.gif)).toBe('image/gif');
    expect(sniffUpload(Buffer.from('GIF87a...', 'latin1'))).toBe('image/gif');
    expect(sniffUpload(SAMPLE_FILES.pdf)).toBe('application/pdf');
    expect(sniffUpload(Buffer.concat([Buffer.from('\ufeff  junk\n'), SAMPLE_FILES.pdf]))).toBe('application/pdf');
    expect(sniffUpload(SAMPLE_FILES.heic)).toBe('image/heic');
    const heif = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypmif1\u0000\u0000\u0000\u0000', 'latin1')]);
    expect(sniffUpload(heif)).toBe('image/heif');
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom\u0000\u0000\u0000\u0000', 'latin1')]);
    expect(sniffUpload(mp4)).toBeNull();
    expect(sniffUpload(SAMPLE_FILES.text)).toBeNull();
    expect(sniffUpload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffUpload(Buffer.from([0x89, 0x50]))).toBeNull();
    expect(sniffUpload(Buffer.alloc(0))).toBeNull();
  });

  it('declared types: parameters and case ignored, aliases resolved', () => {
    expect(normalizeDeclaredType('Image/PNG; charset=binary')).toBe('image/png');
    expect(normalizeDeclaredType('image/jpg')).toBe('image/jpeg');
    expect(normalizeDeclaredType('application/x-pdf')).toBe('application/pdf');
    expect(normalizeDeclaredType(undefined)).toBe('');
  });

  it('the stored type: declared when it matches the bytes, detected when none was declared; 415/400 otherwise', () => {
    expect(receiptContentType(SAMPLE_FILES.png, 'image/png')).toBe('image/png');
    expect(receiptContentType(SAMPLE_FILES.jpeg, 'image/jpg')).toBe('image/jpeg');
    expect(receiptContentType(SAMPLE_FILES.jpeg, 'application/octet-stream')).toBe('image/jpeg');
    expect(receiptContentType(SAMPLE_FILES.pdf, undefined)).toBe('application/pdf');
    expect(receiptContentType(SAMPLE_FILES.heic, 'image/heif')).toBe('image/heif');
    expect(receiptContentType(SAMPLE_FILES.heic, 'image/heic')).toBe('image/heic');
    const status = (fn: () => unknown) => {
      try {
        fn();
        return 200;
      } catch (err) {
        return (err as { statusCode: number }).statusCode;
      }
    };
    expect(status(() => receiptContentType(SAMPLE_FILES.text, 'text/plain'))).toBe(415);
    expect(status(() => receiptContentType(SAMPLE_FILES.png, 'text/plain'))).toBe(415);
    expect(status(() => receiptContentType(SAMPLE_FILES.text, 'image/png'))).toBe(415);
    expect(status(() => receiptContentType(SAMPLE_FILES.text, 'application/octet-stream'))).toBe(415);
    expect(status(() => receiptContentType(SAMPLE_FILES.pdf, 'image/png'))).toBe(400);
    expect(status(() => receiptContentType(SAMPLE_FILES.gif, 'image/jpeg'))).toBe(400);
    expect(status(() => receiptContentType(Buffer.alloc(0), 'image/png'))).toBe(400);
  });

  it('file names: last path segment, no control characters, at most 255 characters keeping the extension', () => {
    expect(safeFileName('C:\\Users\\me\\taxi.png', 'image/png')).toBe('taxi.png');
    expect(safeFileName('../../etc/passwd.pdf', 'application/pdf')).toBe('passwd.pdf');
    expect(safeFileName('bad\u0000na\nme.gif', 'image/gif')).toBe('badname.gif');
    expect(safeFileName('Quittung Zürich €.pdf', 'application/pdf')).toBe('Quittung Zürich €.pdf');
    expect(safeFileName('', 'image/jpeg')).toBe('receipt.jpg');
    expect(safeFileName(undefined, 'image/heic')).toBe('receipt.heic');
    expect(safeFileName('..', 'image/png')).toBe('receipt.png');
    const long = safeFileName(`${'a'.repeat(300)}.jpeg`, 'image/jpeg');
    expect(long).toHaveLength(255);
    expect(long.endsWith('.jpeg')).toBe(true);
  });

  it('form fields convert to JSON types exactly, or 400 naming the field', () => {
    const types = { total_cost: 'number', billable: 'boolean', metadata: 'json', notes: 'string' } as const;
    expect(formToBody({ total_cost: ' 12.50 ', billable: 'false', metadata: '{"a":[1]}', notes: 'n', other: 'x' }, types)).toEqual({
      total_cost: 12.5,
      billable: false,
      metadata: { a: [1] },
      notes: 'n',
      other: 'x',
    });
    expect(formToBody({ metadata: 'null' }, types)).toEqual({ metadata: null });
    expect(formToBody({ metadata: { parsed: true } }, types)).toEqual({ metadata: { parsed: true } });
    for (const fields of [
      { total_cost: 'ten' },
      { total_cost: '' },
      { total_cost: '1e3' },
      { total_cost: '0x10' },
      { total_cost: '1.0000000000000001' },
      { billable: 'yes' },
      { billable: '' },
      { metadata: '{oops' },
    ]) {
      expect(() => formToBody(fields, types), JSON.stringify(fields)).toThrow();
    }
  });
});

describe('receipts over HTTP', () => {
  let ctx: TestContext;
  let w: ExpenseWorkspace;
  let foreign: ExpenseWorkspace;

  const base = (w2: ExpenseWorkspace = w) => ({ project_id: w2.projectA, expense_category_id: w2.travel, spent_date: '2024-05-06', total_cost: '12.50' });

  async function send(caller: Caller, method: 'POST' | 'PATCH', url: string, fields: Record<string, string>, file?: Parameters<typeof multipartBody>[1]) {
    const { payload, headers } = await multipartBody(fields, file);
    return request(ctx.app, caller, { method, url, payload, headers });
  }
  const createWith = (caller: Caller, fields: Record<string, string>, file?: Parameters<typeof multipartBody>[1]) =>
    send(caller, 'POST', '/api/v2/expenses', fields, file);
  const patchWith = (caller: Caller, id: string, fields: Record<string, string>, file?: Parameters<typeof multipartBody>[1]) =>
    send(caller, 'PATCH', `/api/v2/expenses/${id}`, fields, file);
  const download = (caller: Caller, id: string) => request(ctx.app, caller, { method: 'GET', url: `/api/v2/expenses/${id}/receipt` });
  const fileCount = async () => Number((await ctx.db.selectFrom('files').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    ctx = await createTestContext();
    w = await makeExpenseWorkspace(ctx.db, 'Receipts Co');
    foreign = await makeExpenseWorkspace(ctx.db, 'Foreign Co');
  }, 120_000);
  afterAll(() => ctx.close());

  it('POST multipart stores the receipt with the expense; the download returns the identical bytes and type', async () => {
    const types = [
      ['png', 'image/png', 'taxi.png'],
      ['jpeg', 'image/jpeg', 'lunch.jpg'],
      ['gif', 'image/gif', 'scan.gif'],
      ['pdf', 'application/pdf', 'Hotel Zürich.pdf'],
      ['heic', 'image/heic', 'IMG_0001.HEIC'],
    ] as const;
    for (const [kind, type, filename] of types) {
      const data = SAMPLE_FILES[kind];
      const res = await createWith(w.member, base(), { filename, type, data });
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
      const e = res.json();
      expect(e.receipt).toEqual({ file_name: filename, content_type: type, byte_size: data.length });
      expect(e.receipt_download_url).toBe(`/api/v2/expenses/${e.id}/receipt`);
      expect(e.total_cost).toBe(12.5);
      const got = await download(w.member, e.id);
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(data)).toBe(true);
      expect(got.headers['content-type']).toBe(type);
      expect(got.headers['content-length']).toBe(String(data.length));
      expect(got.headers['cache-control']).toBe('private, no-store');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
      const row = await ctx.db
        .selectFrom('files')
        .innerJoin('expenses', (j) => j.onRef('expenses.receipt_file_id', '=', 'files.id').onRef('expenses.company_id', '=', 'files.company_id'))
        .select(['files.company_id', 'files.sha256', 'files.byte_size', 'files.content_type', 'files.filename', 'files.data'])
        .where('expenses.id', '=', e.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ company_id: w.companyId, sha256: sha256(data), byte_size: data.length, content_type: type, filename });
      expect(Buffer.compare(row.data, data)).toBe(0);
    }
    // A hand-written part, so the file name carries a quote and a backslash as sent (FormData would percent-encode the quote).
    const boundary = 'sheafBoundary42';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const raw = Buffer.concat([
      Buffer.from(Object.entries(base()).map(([k, v]) => part(k, v)).join('')),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="receipt"; filename="Reçu \\"final\\".pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      SAMPLE_FILES.pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const quoted = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: raw,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(quoted.statusCode, quoted.body).toBe(201);
    expect(quoted.json().receipt.file_name).toBe('Reçu "final".pdf');
    const disposition = (await download(w.member, quoted.json().id)).headers['content-disposition'];
    expect(disposition).toBe(`attachment; filename="Re_u _final_.pdf"; filename*=UTF-8''Re%C3%A7u%20%22final%22.pdf`);
  });

  it('form fields are the JSON fields as text: numbers, booleans, metadata JSON, all checked like JSON', async () => {
    const res = await createWith(w.admin, {
      ...base(),
      total_cost: '',
      user_id: w.member.userId,
      billable: 'false',
      notes: 'From the form',
      source: 'web',
      metadata: '{"model":"gpt","tokens":1200}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('total_cost');
    const { total_cost: _omit, ...noCost } = base();
    const ok = await createWith(w.admin, {
      ...noCost,
      expense_category_id: w.mileage,
      units: '12.5',
      user_id: w.member.userId,
      billable: 'false',
      notes: 'From the form',
      source: 'web',
      metadata: '{"model":"gpt","tokens":1200}',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      user_id: w.member.userId,
      units: 12.5,
      total_cost: 7.25,
      billable: false,
      notes: 'From the form',
      source: 'web',
      metadata: { model: 'gpt', tokens: 1200 },
      receipt: null,
    });
    const cases: Array<[Record<string, string>, string, number?]> = [
      [{ ...base(), total_cost: 'ten' }, 'total_cost'],
      [{ ...base(), total_cost: '-1' }, 'total_cost'],
      [{ ...base(), total_cost: '1.999' }, 'total_cost'],
      [{ ...base(), billable: 'maybe' }, 'billable'],
      [{ ...base(), metadata: 'not json' }, 'metadata'],
      [{ ...base(), metadata: '[1,2]' }, 'metadata'],
      [{ ...base(), source: 'desktop' }, 'source'],
      [{ ...base(), spent_date: '2024-02-31' }, 'spent_date'],
      [{ ...base(), is_billed: 'true' }, 'is_billed'],
      [{ ...base(), colour: 'red' }, 'colour'],
      [{ ...base(), receipt: 'not a file' }, 'receipt'],
      [{ ...base(), project_id: foreign.projectA }, 'project_id'],
      [{ ...base(), user_id: w.other.userId }, '', 403],
    ];
    for (const [fields, field, status = 400] of cases) {
      const bad = await createWith(w.member, fields, { filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png });
      expect(bad.statusCode, JSON.stringify(fields)).toBe(status);
      if (field) expect(bad.json().field, JSON.stringify(fields)).toBe(field);
    }
    const { project_id: _p, ...noProject } = base();
    const missing = await createWith(w.member, noProject);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('project_id');
  });

  it('odd parts: JSON-typed parts are checked as JSON, a file part without a type is 415 saying so, never a 500', async () => {
    const boundary = 'sheafOdd7';
    const part = (name: string, value: string, type?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${value}\r\n`;
    const filePart = (headers: string, data: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="receipt"; filename="r.png"\r\n${headers}\r\n`), data, Buffer.from('\r\n')]);
    const post = (...parts: Array<string | Buffer>) =>
      request(ctx.app, w.member, {
        method: 'POST',
        url: '/api/v2/expenses',
        payload: Buffer.concat([...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)), Buffer.from(`--${boundary}--\r\n`)]),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    const { total_cost: _cost, ...rest } = base();
    const fields = Object.entries(rest).map(([k, v]) => part(k, v)).join('');
    // Parts sent as application/json carry JSON values: the right type is accepted as in a JSON body...
    const typed = await post(fields, part('total_cost', '12.5', 'application/json'), part('billable', 'false', 'application/json'), part('metadata', '{"k":[1]}', 'application/json'));
    expect(typed.statusCode, typed.body).toBe(201);
    expect(typed.json()).toMatchObject({ total_cost: 12.5, billable: false, metadata: { k: [1] } });
    // ...and the wrong type is the JSON body's 400 naming the field.
    for (const [name, value] of [
      ['total_cost', '{"a":1}'],
      ['total_cost', 'true'],
      ['billable', '"yes"'],
      // a JSON string is a string, as in a JSON body: never converted to the number or boolean it spells
      ['total_cost', '"12"'],
      ['billable', '"false"'],
      ['metadata', '[1,2]'],
      ['project_id', '42'],
      ['spent_date', '20240506'],
    ] as const) {
      const extra = name === 'total_cost' ? '' : part('total_cost', '1');
      const body = name === 'project_id' || name === 'spent_date' ? fields.replace(part(name, (rest as Record<string, string>)[name]), '') : fields;
      const res = await post(body, extra, part(name, value, 'application/json'));
      expect(res.statusCode, `${name}=${value}: ${res.body}`).toBe(400);
      expect(res.json().field).toBe(name);
    }
    const badJson = await post(fields, part('total_cost', '{oops', 'application/json'));
    expect(badJson.statusCode).toBe(400);
    // RFC 7578: a file part without Content-Type is text/plain, which is not a receipt type.
    const untyped = await post(fields, part('total_cost', '1'), filePart('', SAMPLE_FILES.png));
    expect(untyped.statusCode).toBe(415);
    expect(untyped.json()).toMatchObject({ error: 'unsupported_media_type', field: 'receipt' });
    expect(untyped.json().message).toMatch(/without a Content-Type header counts as text\/plain/);
    // A file part without a filename is a text field named receipt.
    const nameless = await post(fields, part('total_cost', '1'), part('receipt', SAMPLE_FILES.gif.toString('latin1'), 'image/gif'));
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().field).toBe('receipt');
    // Prototype names, too many parts, an over-long field.
    for (const [extra, status] of [
      [part('__proto__', 'x'), 400],
      [part('constructor', '{"a":1}', 'application/json'), 400],
      [Array.from({ length: 40 }, (_, i) => part(`f${i}`, 'x')).join(''), 413],
      [part('notes', 'x'.repeat(65 * 1024)), 413],
    ] as const) {
      const res = await post(fields, part('total_cost', '1'), extra);
      expect(res.statusCode).toBe(status);
    }
  });

  it('refuses other file parts, two files and repeated fields (400); a malformed body is 400', async () => {
    const other = await createWith(w.member, base(), { field: 'invoice', filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ error: 'unknown_field', field: 'invoice' });

    const form = new FormData();
    for (const [k, v] of Object.entries(base())) form.append(k, v);
    form.append('receipt', new Blob([new Uint8Array(SAMPLE_FILES.png)], { type: 'image/png' }), 'a.png');
    form.append('receipt', new Blob([new Uint8Array(SAMPLE_FILES.gif)], { type: 'image/gif' }), 'b.gif');
    const req = new Request('http://x/', { method: 'POST', body: form });
    const two = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: Buffer.from(await req.arrayBuffer()),
      headers: { 'content-type': req.headers.get('content-type')! },
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().field).toBe('receipt');

    const dupForm = new FormData();
    for (const [k, v] of Object.entries(base())) dupForm.append(k, v);
    dupForm.append('notes', 'a');
    dupForm.append('notes', 'b');
    const dupReq = new Request('http://x/', { method: 'POST', body: dupForm });
    const dup = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: Buffer.from(await dupReq.arrayBuffer()),
      headers: { 'content-type': dupReq.headers.get('content-type')! },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().field).toBe('notes');

    const broken = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: '--nope\r\ngarbage',
      headers: { 'content-type': 'multipart/form-data; boundary=other' },
    });
    expect(broken.statusCode).toBe(400);
    const noBoundary = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.statusCode).toBe(400);
  });

  it('a body cut off before its closing boundary is 400 and stores nothing (no expense, no partial receipt)', async () => {
    const files = await fileCount();
    const expenses = async () => (await request(ctx.app, w.member, { method: 'GET', url: '/api/v2/expenses' })).json().total_entries;
    const before = await expenses();
    const { payload, headers } = await multipartBody({ ...base(), notes: 'cut off' }, { filename: 'r.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf });
    for (const cut of [payload.length - 4, payload.length - 5, payload.length - 8, payload.length - 40]) {
      const res = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/expenses', payload: payload.subarray(0, cut), headers });
      expect(res.statusCode, `cut at ${cut} of ${payload.length}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request' });
    }
    expect(await expenses()).toBe(before);
    expect(await fileCount()).toBe(files);
  });

  it('a receipt over 10 MiB is 413 and nothing is stored; exactly 10 MiB is accepted', async () => {
    const files = await fileCount();
    const expenses = Number((await ctx.db.selectFrom('expenses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const big = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(RECEIPT_MAX_BYTES + 1 - SAMPLE_FILES.png.length, 7)]);
    const res = await createWith(w.member, base(), { filename: 'big.png', type: 'image/png', data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large', field: 'receipt' });
    expect(res.json().message).toMatch(/10 MiB/);
    expect(await fileCount()).toBe(files);
    const after = Number((await ctx.db.selectFrom('expenses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(expenses);
    const exact = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(RECEIPT_MAX_BYTES - SAMPLE_FILES.png.length, 7)]);
    const ok = await createWith(w.member, base(), { filename: 'exact.png', type: 'image/png', data: exact });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().receipt.byte_size).toBe(RECEIPT_MAX_BYTES);
    const got = await download(w.member, ok.json().id);
    expect(got.rawPayload.equals(exact)).toBe(true);
    const patchBig = await patchWith(w.member, ok.json().id, {}, { filename: 'big.png', type: 'image/png', data: big });
    expect(patchBig.statusCode).toBe(413);
  }, 60_000);

  it('wrong types: 415 when the declared type or the bytes are not accepted, 400 when they disagree or the file is empty', async () => {
    const files = await fileCount();
    for (const [file, status] of [
      [{ filename: 'notes.txt', type: 'text/plain', data: SAMPLE_FILES.text }, 415],
      [{ filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.text }, 415],
      [{ filename: 'r.png', type: 'text/plain', data: SAMPLE_FILES.png }, 415],
      [{ filename: 'r.svg', type: 'image/svg+xml', data: Buffer.from('<svg/>') }, 415],
      [{ filename: 'r.bin', type: 'application/octet-stream', data: SAMPLE_FILES.text }, 415],
      [{ filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.pdf }, 400],
      [{ filename: 'r.jpg', type: 'image/jpeg', data: SAMPLE_FILES.gif }, 400],
      [{ filename: 'r.png', type: 'image/png', data: Buffer.alloc(0) }, 400],
    ] as const) {
      const res = await createWith(w.member, base(), file);
      expect(res.statusCode, `${file.type} ${file.filename}`).toBe(status);
      expect(res.json().field).toBe('receipt');
      if (status === 415) expect(res.json().error).toBe('unsupported_media_type');
    }
    expect(await fileCount()).toBe(files);
    const undeclared = await createWith(w.member, base(), { filename: 'photo', type: 'application/octet-stream', data: SAMPLE_FILES.jpeg });
    expect(undeclared.statusCode).toBe(201);
    expect(undeclared.json().receipt).toEqual({ file_name: 'photo', content_type: 'image/jpeg', byte_size: SAMPLE_FILES.jpeg.length });
    expect((await download(w.member, undeclared.json().id)).headers['content-type']).toBe('image/jpeg');
    const alias = await createWith(w.member, base(), { filename: 'r.jpg', type: 'image/jpg', data: SAMPLE_FILES.jpeg });
    expect(alias.json().receipt.content_type).toBe('image/jpeg');
  });

  it('PATCH multipart adds, replaces (the old file goes) and, with delete_receipt, removes the receipt', async () => {
    const e = (await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: { project_id: w.projectA, expense_category_id: w.travel, spent_date: '2024-05-06', total_cost: 5 },
    })).json();
    expect(e.receipt).toBeNull();
    ctx.clock.advance(1000);
    const added = await patchWith(w.member, e.id, {}, { filename: 'first.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ receipt: { file_name: 'first.pdf', content_type: 'application/pdf' }, total_cost: 5 });
    expect(added.json().updated_at).not.toBe(e.updated_at);
    expect((await download(w.member, e.id)).rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    const firstFile = (await ctx.db.selectFrom('expenses').select('receipt_file_id').where('id', '=', e.id).executeTakeFirstOrThrow()).receipt_file_id!;

    const replaced = await patchWith(w.member, e.id, { notes: 'with a better scan', total_cost: '6.40' }, { filename: 'second.gif', type: 'image/gif', data: SAMPLE_FILES.gif });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ notes: 'with a better scan', total_cost: 6.4, receipt: { file_name: 'second.gif', content_type: 'image/gif', byte_size: SAMPLE_FILES.gif.length } });
    const got = await download(w.member, e.id);
    expect(got.rawPayload.equals(SAMPLE_FILES.gif)).toBe(true);
    expect(got.headers['content-type']).toBe('image/gif');
    expect(await ctx.db.selectFrom('files').select('id').where('id', '=', firstFile).executeTakeFirst()).toBeUndefined();

    const both = await patchWith(w.member, e.id, { delete_receipt: 'true' }, { filename: 'x.png', type: 'image/png', data: SAMPLE_FILES.png });
    expect(both.statusCode).toBe(400);
    expect(both.json().field).toBe('delete_receipt');
    const sourceForm = await patchWith(w.member, e.id, { source: 'web' });
    expect(sourceForm.statusCode).toBe(400);
    expect(sourceForm.json().field).toBe('source');
    const emptyForm = await patchWith(w.member, e.id, {});
    expect(emptyForm.statusCode).toBe(400);

    const secondFile = (await ctx.db.selectFrom('expenses').select('receipt_file_id').where('id', '=', e.id).executeTakeFirstOrThrow()).receipt_file_id!;
    const removed = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/expenses/${e.id}`, payload: { delete_receipt: true } });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ receipt: null, receipt_download_url: null });
    expect(await ctx.db.selectFrom('files').select('id').where('id', '=', secondFile).executeTakeFirst()).toBeUndefined();
    expect((await download(w.member, e.id)).statusCode).toBe(404);
    const again = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/expenses/${e.id}`, payload: { delete_receipt: true } });
    expect(again.statusCode).toBe(200);
    const viaForm = await patchWith(w.member, e.id, { delete_receipt: 'false' }, { filename: 'third.heic', type: 'image/heic', data: SAMPLE_FILES.heic });
    expect(viaForm.json().receipt.file_name).toBe('third.heic');
    expect((await download(w.member, e.id)).rawPayload.equals(SAMPLE_FILES.heic)).toBe(true);
  });

  it('deleting the expense deletes its receipt file', async () => {
    const e = (await createWith(w.member, base(), { filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png })).json();
    const fileId = (await ctx.db.selectFrom('expenses').select('receipt_file_id').where('id', '=', e.id).executeTakeFirstOrThrow()).receipt_file_id!;
    expect((await request(ctx.app, w.member, { method: 'DELETE', url: `/api/v2/expenses/${e.id}` })).statusCode).toBe(204);
    expect(await ctx.db.selectFrom('files').select('id').where('id', '=', fileId).executeTakeFirst()).toBeUndefined();
  });

  it('a refused write stores no file: bad fields, locked expenses and locked weeks', async () => {
    const files = await fileCount();
    const file = { filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png };
    expect((await createWith(w.member, { ...base(), expense_category_id: w.retired }, file)).statusCode).toBe(400);
    const locked = await insertExpenseRow(ctx.db, w.companyId, {
      userId: w.member.userId,
      projectId: w.projectA,
      categoryId: w.travel,
      spentDate: '2022-01-03',
      isBilled: true,
    });
    const res = await patchWith(w.member, locked, {}, file);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('expense_locked');
    const inWeek = (await createWith(w.contractor, { ...base(), spent_date: '2022-02-04' }, file)).json();
    const filesBefore = await fileCount();
    await insertApprovedTime(ctx.db, w.companyId, w.contractor.userId, w.projectA, '2022-02-02');
    const week = await createWith(w.contractor, { ...base(), spent_date: '2022-02-03' }, file);
    expect(week.statusCode).toBe(409);
    expect(week.json().error).toBe('approved_timesheet_week_locked');
    // Adding, replacing or removing the receipt of an expense in that week is a change too.
    const replace = await patchWith(w.contractor, inWeek.id, {}, file);
    expect(replace.statusCode).toBe(409);
    expect(replace.json().error).toBe('approved_timesheet_week_locked');
    const remove = await request(ctx.app, w.contractor, { method: 'PATCH', url: `/api/v2/expenses/${inWeek.id}`, payload: { delete_receipt: true } });
    expect(remove.statusCode).toBe(409);
    expect((await download(w.contractor, inWeek.id)).statusCode).toBe(200);
    expect(await fileCount()).toBe(filesBefore);
    expect(filesBefore).toBe(files + 1);
  });

  it('the download: 404 without a receipt or when the expense is not visible; managers read teammates\' receipts', async () => {
    const withReceipt = (await createWith(w.member, base(), { filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png })).json();
    const without = (await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: { project_id: w.projectA, expense_category_id: w.travel, spent_date: '2024-05-06', total_cost: 1 },
    })).json();
    const none = await download(w.member, without.id);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('not_found');
    expect(none.headers['content-type']).toMatch(/application\/json/);
    expect((await download(w.manager, withReceipt.id)).statusCode).toBe(200);
    expect((await download(w.owner, withReceipt.id)).statusCode).toBe(200);
    for (const caller of [w.other, w.contractor, w.mgrCats, foreign.owner]) {
      expect((await download(caller, withReceipt.id)).statusCode).toBe(404);
    }
    for (const id of [newId(), 'nope']) expect((await download(w.owner, id)).statusCode).toBe(404);
    const personal = await download(w.memberPersonal, withReceipt.id);
    expect(personal.statusCode).toBe(403);
    expect((await request(ctx.app, null, { method: 'GET', url: `/api/v2/expenses/${withReceipt.id}/receipt` })).statusCode).toBe(401);
    expect((await request(ctx.app, w.member, { method: 'GET', url: `/api/v2/expenses/${withReceipt.id}/receipt?download=1` })).statusCode).toBe(400);
  });

  it('personal keys cannot upload; other routes do not take multipart (415)', async () => {
    const res = await createWith(w.memberPersonal, base(), { filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png });
    expect(res.statusCode).toBe(403);
    const { payload, headers } = await multipartBody({ name: 'Hotel' });
    const other = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/expense_categories', payload, headers });
    expect(other.statusCode).toBe(415);
  });

  it('Idempotency-Key covers the file: the same upload replays, another file with the same key is 409', async () => {
    const key = `receipt-${Date.now()}`;
    const first = await multipartBody(base(), { filename: 'r.png', type: 'image/png', data: SAMPLE_FILES.png });
    const send1 = () => request(ctx.app, w.member, { method: 'POST', url: '/api/v2/expenses', payload: first.payload, headers: { ...first.headers, 'idempotency-key': key } });
    const a = await send1();
    const b = await send1();
    expect(a.statusCode).toBe(201);
    expect(b.body).toBe(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
    const other = await multipartBody(base(), { filename: 'r.png', type: 'image/png', data: Buffer.concat([SAMPLE_FILES.png, Buffer.from('x')]) });
    const c = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/expenses', payload: other.payload, headers: { ...other.headers, 'idempotency-key': key } });
    expect(c.statusCode).toBe(409);
    expect(c.json().error).toBe('idempotency_key_reused');
  });

  it('receipt_download_url is the path of the download, and lists carry the receipt description', async () => {
    const e = (await createWith(w.contractor, base(), { filename: 'list.png', type: 'image/png', data: SAMPLE_FILES.png })).json();
    const list = (await request(ctx.app, w.contractor, { method: 'GET', url: '/api/v2/expenses' })).json();
    const item = list.expenses.find((x: any) => x.id === e.id);
    expect(item.receipt).toEqual({ file_name: 'list.png', content_type: 'image/png', byte_size: SAMPLE_FILES.png.length });
    expect((await request(ctx.app, w.contractor, { method: 'GET', url: item.receipt_download_url })).rawPayload.equals(SAMPLE_FILES.png)).toBe(true);
  });
});
