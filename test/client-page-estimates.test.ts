import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/sessions.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertClient, insertItemCategories, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Estimates on the client's page (issue 25): sending an estimate puts a new client
 * link in its e-mail; the page shows that estimate (lines, totals, validity, state,
 * PDF) and takes the client's Accept or Decline (with an optional reason) once: a
 * second answer, an answer after a revoke, on a declined or converted estimate, or
 * past its validity is refused and writes nothing; of two answers at once one wins.
 * The workspace sees the answer on the estimate; the link shows nothing else. And
 * the send dialogs' first recipients: the client's invoice e-mail address, else its
 * contacts.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
let clientId: string;
let germanId: string;
let dist: string;
const s = {} as Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller>;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'sheaf-client-estimates-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Sheaf</title>');
  ctx = await createTestContext({ config: { webDist: dist } });
  w = await makeInvoiceWorkspace(ctx.db, { sender_email: 'billing@acme.test' } as never);
  other = await makeInvoiceWorkspace(ctx.db);
  await insertItemCategories(ctx.db, w.companyId, ['Travel']);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex', address: '5 Client Road\nHamburg', tax: '19' });
  germanId = await insertClient(ctx.db, w.companyId, { name: 'Müller GmbH', currency: 'EUR' });
  await ctx.db.updateTable('clients').set({ language: 'de' }).where('id', '=', germanId).execute();
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
}, 120_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dist, { recursive: true, force: true });
});

type Res = Awaited<ReturnType<typeof request>>;
const api = (caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: payload as object | undefined, headers });
const page = (token: unknown) => api(null, 'POST', '/web/api/client-page', { token });
const pdf = (token: unknown) => api(null, 'POST', '/web/api/client-page/pdf', { token });
/** Accepts as the page does: naming the version of the estimate the page shows (any text when the page is gone). */
const accept = async (token: unknown, version?: string) => {
  const shown = await page(token);
  return api(null, 'POST', '/web/api/client-page/accept', { token, version: version ?? (shown.json().estimate?.version ?? 'none') });
};
const decline = (token: unknown, reason?: string | null) => api(null, 'POST', '/web/api/client-page/decline', reason === undefined ? { token } : { token, reason });

/** YYYY-MM-DD `days` from the test clock's today (UTC; the workspace's zone is near it). */
const day = (days: number) => new Date(ctx.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

async function estimate(body: Record<string, unknown> = {}) {
  const res = await api(s.owner, 'POST', '/web/api/estimates', {
    client_id: clientId,
    subject: 'New website',
    notes: 'Prices without travel.',
    issue_date: day(-3),
    valid_until: day(30),
    line_items: [
      { description: 'Design', quantity: 2, unit_price: 100 },
      { kind: 'Travel', description: 'Two visits', quantity: 1, unit_price: 42.5, taxed: false },
    ],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Sends the estimate and returns the token its e-mail carries, and the e-mail's text. */
async function sendAndTakeToken(id: string) {
  const res = await api(s.owner, 'POST', `/web/api/estimates/${id}/send`, { recipients: [{ email: 'buyer@globex.test' }] });
  expect(res.statusCode, res.body).toBe(200);
  const mail = await ctx.db
    .selectFrom('outbox')
    .select('payload')
    .where('company_id', '=', w.companyId)
    .where('kind', '=', 'estimate_message')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const text = (mail.payload as { text: string }).text;
  const token = /\/c#([A-Za-z0-9_-]{43})\n$/.exec(text)?.[1];
  expect(token, text).toBeDefined();
  return { token: token!, text };
}

async function sentEstimate(body: Record<string, unknown> = {}) {
  const e = await estimate(body);
  return { e, ...(await sendAndTakeToken(e.id)) };
}

const expectGone = (res: Res) => {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json()).toMatchObject({ error: 'not_found', message: 'The page was not found.' });
};

/** What a refused answer must leave as it was: the estimate row and the audit trail. */
async function snapshot(id: string) {
  const row = await ctx.db.selectFrom('estimates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const audits = await ctx.db.selectFrom('audit_logs').select('id').where('subject_id', '=', id).execute();
  return { row, audits: audits.length };
}

describe('the link in the estimate’s e-mail', () => {
  it('is made at each send, stored as its hash, and ends the e-mail in the client’s language', async () => {
    const { e, token, text } = await sentEstimate();
    expect(text).toMatch(new RegExp(`The estimate is valid until .+\\.`));
    expect(text).toMatch(new RegExp(`\\n\\nView the estimate, download it, and accept or decline it online: http://\\S+/c#${token}\\n$`));
    const rows = await ctx.db.selectFrom('client_links').selectAll().where('subject_id', '=', e.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ company_id: w.companyId, subject_type: 'estimate', created_by: w.owner.userId, revoked_at: null });
    expect(Buffer.compare(rows[0].token_hash, hashToken(token))).toBe(0);
    const sent = await ctx.db.selectFrom('audit_logs').select('details').where('subject_id', '=', e.id).where('action', '=', 'estimate.sent').executeTakeFirstOrThrow();
    expect(sent.details).toMatchObject({ link_id: rows[0].id });

    const again = await sendAndTakeToken(e.id);
    expect(again.token).not.toBe(token);
    expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}/client-links`)).json()).toMatchObject({ active_links: 2, last_viewed_at: null });

    const de = await estimate({ client_id: germanId, line_items: [{ description: 'Schränke', quantity: 1, unit_price: 10 }] });
    expect((await sendAndTakeToken(de.id)).text).toMatch(/Angebot online ansehen, herunterladen und annehmen oder ablehnen: http:\/\/\S+\/c#[\w-]{43}\n$/);
  });
});

describe('the page of an estimate', () => {
  it('shows the estimate as printed, its validity and state, and nothing else', async () => {
    const { e, token } = await sentEstimate();
    const res = await page(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.json()).toEqual({
      kind: 'estimate',
      language: 'en',
      seller: { name: 'Acme Studio', address: '1 Main Street\n10115 Berlin', email: 'billing@acme.test', phone: null, tax_id: null, vat_id: null },
      client: { name: 'Globex', address: '5 Client Road\nHamburg', vat_id: null },
      estimate: {
        number: e.number,
        state: 'sent',
        subject: 'New website',
        issue_date: day(-3),
        valid_until: day(30),
        expired: false,
        can_answer: true,
        version: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        currency: 'EUR',
        notes: 'Prices without travel.',
        line_items: [
          { kind: 'Service', description: 'Design', quantity: 2, unit_price: 100, amount: 200 },
          { kind: 'Travel', description: 'Two visits', quantity: 1, unit_price: 42.5, amount: 42.5 },
        ],
        // 19 % of the taxed 200 = 38; 242.5 + 38 = 280.5.
        subtotal: 242.5,
        discount: 0,
        discount_amount: 0,
        tax: 19,
        tax_amount: 38,
        tax2: 0,
        tax2_amount: 0,
        amount: 280.5,
        accepted_at: null,
        declined_at: null,
        decline_reason: null,
      },
    });
    // No id of any record, no person of the workspace.
    expect(res.body).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(res.body).not.toContain(w.owner.email);
    // The visit is what the estimate page reports as "last opened".
    expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}/client-links`)).json().last_viewed_at).toEqual(expect.any(String));
  });

  it('gives the estimate’s PDF', async () => {
    const { e, token } = await sentEstimate();
    const res = await pdf(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="estimate-${e.number}.pdf"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const flat = (await extractText(new Uint8Array(res.rawPayload), { mergePages: true })).text.replace(/[\s\u00a0\u202f]+/g, ' ');
    for (const part of ['ESTIMATE', `Estimate number ${e.number}`, 'Valid until', 'Globex', 'Design', '€280.50']) expect(flat).toContain(part);
  }, 60_000);

  it('names the PDF in the client’s language, as the estimate page’s PDF route does: Angebot-<number>.pdf for a German client', async () => {
    const { e, token } = await sentEstimate({ client_id: germanId });
    const res = await pdf(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Angebot-${e.number}.pdf"`);
    const own = await api(s.owner, 'GET', `/web/api/estimates/${e.id}/pdf?download=true`);
    expect(own.headers['content-disposition']).toBe(`attachment; filename="Angebot-${e.number}.pdf"`);
    expect((await page(token)).json().language).toBe('de');
  }, 60_000);

  it('shows only its own estimate: no other estimate or invoice of the client or the workspace', async () => {
    const mine = await sentEstimate();
    const theirs = await sentEstimate({ subject: 'Secret second quote' });
    const invoice = (await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, subject: 'Invoice subject', line_items: [{ description: 'Billed', quantity: 1, unit_price: 9 }] })).json();
    expect((await api(w.owner, 'POST', `/api/v2/invoices/${invoice.id}/messages`, { recipients: [{ email: 'ap@globex.test' }] })).statusCode).toBe(201);
    const body = (await page(mine.token)).body;
    expect(JSON.parse(body).estimate.number).toBe(mine.e.number);
    for (const hidden of [theirs.e.number === mine.e.number ? 'never' : `"number":"${theirs.e.number}"`, 'Secret second quote', 'Invoice subject', invoice.number === mine.e.number ? 'never' : `"number":"${invoice.number}"`]) {
      expect(body).not.toContain(hidden);
    }
    // The answer of one link moves that estimate only.
    expect((await accept(mine.token)).statusCode).toBe(200);
    expect((await api(s.owner, 'GET', `/web/api/estimates/${theirs.e.id}`)).json().state).toBe('sent');
    // An invoice's link answers nothing.
    const invoiceToken = /\/c#([\w-]{43})\n$/.exec(
      ((await ctx.db.selectFrom('outbox').select('payload').where('kind', '=', 'invoice_message').orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow()).payload as { text: string }).text,
    )![1];
    expectGone(await accept(invoiceToken));
    expectGone(await decline(invoiceToken));
    expect((await api(s.owner, 'GET', `/api/v2/invoices/${invoice.id}`)).json().state).toBe('open');
  });

  it('a draft (reopened to revise) is the plain 404 until sent again', async () => {
    const { e, token } = await sentEstimate();
    expect((await api(s.owner, 'POST', `/web/api/estimates/${e.id}/decline`)).statusCode).toBe(200);
    expect((await api(s.owner, 'POST', `/web/api/estimates/${e.id}/reopen`)).statusCode).toBe(200);
    expectGone(await page(token));
    expectGone(await pdf(token));
    const before = await snapshot(e.id);
    expectGone(await accept(token));
    expect(await snapshot(e.id)).toEqual(before);
    await sendAndTakeToken(e.id);
    expect((await page(token)).json().estimate).toMatchObject({ state: 'sent', can_answer: true });
  });
});

describe('the client’s answer', () => {
  it('accepts only the estimate the client saw: one edited since is 409 and stays sent; the page then shows it as it is', async () => {
    const { e, token } = await sentEstimate();
    const seen = (await page(token)).json().estimate;
    const edited = await api(s.owner, 'PATCH', `/web/api/estimates/${e.id}`, { line_items: [{ kind: 'Service', description: 'Design', quantity: 10, unit_price: 500 }] });
    expect(edited.statusCode, edited.body).toBe(200);
    const before = await snapshot(e.id);
    const stale = await accept(token, seen.version);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'conflict', field: 'version' });
    expect(await snapshot(e.id)).toEqual(before);
    const now = (await page(token)).json().estimate;
    expect(now.version).not.toBe(seen.version);
    expect(now.amount).not.toBe(seen.amount);
    // Without a version the page's answer is not taken at all.
    expect((await api(null, 'POST', '/web/api/client-page/accept', { token })).statusCode).toBe(400);
    expect((await accept(token, now.version)).json().estimate).toMatchObject({ state: 'accepted' });
  });

  it('tells the estimate’s author of the client’s answer by e-mail, in their language; an answer recorded in the web app tells nobody', async () => {
    const mails = async (kind: string) =>
      (await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', w.companyId).where('kind', '=', kind).orderBy('created_at').orderBy('id').execute()).map(
        (m) => m.payload as { to: Array<{ email: string }>; subject: string; text: string },
      );
    const before = { accepted: (await mails('estimate_accepted')).length, declined: (await mails('estimate_declined')).length };
    const yes = await sentEstimate();
    expect((await accept(yes.token)).statusCode).toBe(200);
    const [accepted] = (await mails('estimate_accepted')).slice(before.accepted);
    expect(accepted.to.map((t) => t.email)).toEqual([w.owner.email]);
    expect(accepted.subject).toBe(`Globex accepted estimate ${yes.e.number}`);
    expect(accepted.text).toContain(`Globex accepted estimate ${yes.e.number} (€`);
    const no = await sentEstimate();
    expect((await decline(no.token, 'Too expensive')).statusCode).toBe(200);
    const [declined] = (await mails('estimate_declined')).slice(before.declined);
    expect(declined.text).toContain('Their reason: Too expensive');
    const recorded = await sentEstimate();
    expect((await api(s.owner, 'POST', `/web/api/estimates/${recorded.e.id}/accept`)).statusCode).toBe(200);
    expect(await mails('estimate_accepted')).toHaveLength(before.accepted + 1);
  });

  it('accepts once: the workspace sees it on the estimate, audited as by the client; a second answer is 409 and writes nothing', async () => {
    const { e, token } = await sentEstimate();
    const res = await accept(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().estimate).toMatchObject({ state: 'accepted', can_answer: false, accepted_at: ctx.clock.now().toISOString() });
    expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}`)).json()).toMatchObject({ state: 'accepted', answered_by_client: true, accepted_at: expect.any(String) });
    const link = await ctx.db.selectFrom('client_links').select('id').where('subject_id', '=', e.id).executeTakeFirstOrThrow();
    const audit = await ctx.db.selectFrom('audit_logs').select(['actor_user_id', 'details']).where('subject_id', '=', e.id).where('action', '=', 'estimate.accepted').execute();
    expect(audit).toEqual([{ actor_user_id: null, details: { by_client: true, link_id: link.id } }]);

    const before = await snapshot(e.id);
    for (const again of [await accept(token), await decline(token, 'Changed my mind')]) {
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({ error: 'conflict', message: 'This estimate was accepted already.', state: 'accepted', refusal: 'estimate_state' });
    }
    expect(await snapshot(e.id)).toEqual(before);
  });

  it('declines with an optional reason, which the estimate page shows; then nothing more', async () => {
    const { e, token } = await sentEstimate();
    const tooLong = await decline(token, 'x'.repeat(2001));
    expect(tooLong.statusCode).toBe(400);
    expect((await api(null, 'POST', '/web/api/client-page/accept', { token, reason: 'no' })).statusCode).toBe(400);
    expect((await api(null, 'POST', '/web/api/client-page/decline', { token, reason: 'bad\u0000' })).statusCode).toBe(400);
    expect(await ctx.db.selectFrom('estimates').select('state').where('id', '=', e.id).executeTakeFirstOrThrow()).toEqual({ state: 'sent' });

    const res = await decline(token, '  Too expensive for this year.  ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().estimate).toMatchObject({ state: 'declined', can_answer: false, decline_reason: 'Too expensive for this year.' });
    expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}`)).json()).toMatchObject({ state: 'declined', answered_by_client: true, decline_reason: 'Too expensive for this year.' });
    const audit = await ctx.db.selectFrom('audit_logs').select('details').where('subject_id', '=', e.id).where('action', '=', 'estimate.declined').executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ by_client: true, reason: 'Too expensive for this year.' });
    const before = await snapshot(e.id);
    const again = await accept(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This estimate was declined already.');
    expect(await snapshot(e.id)).toEqual(before);
    // Reopening clears the reason with the answer.
    expect((await api(s.owner, 'POST', `/web/api/estimates/${e.id}/reopen`)).json()).toMatchObject({ state: 'draft', decline_reason: null, answered_by_client: null });

    // Without a reason (or an empty one): none.
    const plain = await sentEstimate();
    expect((await decline(plain.token, '   ')).json().estimate).toMatchObject({ state: 'declined', decline_reason: null });
  });

  it('of two answers at once, one is recorded and the other refused', async () => {
    for (const pair of [
      [accept, decline],
      [accept, accept],
      [decline, decline],
    ] as const) {
      const { e, token } = await sentEstimate();
      const answers = await Promise.all([pair[0](token), pair[1](token)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const winner = answers.find((r) => r.statusCode === 200)!.json().estimate.state;
      expect(await ctx.db.selectFrom('estimates').select('state').where('id', '=', e.id).executeTakeFirstOrThrow()).toEqual({ state: winner });
      const audits = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', e.id).where('action', 'in', ['estimate.accepted', 'estimate.declined']).execute();
      expect(audits).toEqual([{ action: `estimate.${winner}` }]);
    }
  }, 60_000);

  it('a converted estimate (accepted by the workspace) is 409; a revoked link is 404 at once; nothing is written', async () => {
    const { e, token } = await sentEstimate();
    expect((await api(s.owner, 'POST', `/web/api/estimates/${e.id}/accept`)).statusCode).toBe(200);
    expect((await api(s.owner, 'POST', `/web/api/estimates/${e.id}/convert`)).statusCode).toBe(201);
    const converted = await snapshot(e.id);
    for (const res of [await accept(token), await decline(token)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ state: 'accepted' });
    }
    expect(await snapshot(e.id)).toEqual(converted);
    // The page still shows it, accepted, with no answer to give and not the invoice it became.
    const shown = await page(token);
    expect(shown.json().estimate).toMatchObject({ state: 'accepted', can_answer: false });
    expect(shown.body).not.toContain('invoice');

    const open = await sentEstimate();
    expect((await page(open.token)).statusCode).toBe(200);
    expect((await api(s.mgrInvoices, 'DELETE', `/web/api/estimates/${open.e.id}/client-links`)).statusCode).toBe(204);
    const before = await snapshot(open.e.id);
    expectGone(await page(open.token));
    expectGone(await pdf(open.token));
    expectGone(await accept(open.token));
    expectGone(await decline(open.token, 'late'));
    expect(await snapshot(open.e.id)).toEqual(before);
    expect((await api(s.owner, 'GET', `/web/api/estimates/${open.e.id}/client-links`)).json()).toMatchObject({ active_links: 0 });
    const revokedAudit = await ctx.db.selectFrom('audit_logs').select('details').where('subject_id', '=', open.e.id).where('action', '=', 'estimate.client_links_revoked').executeTakeFirstOrThrow();
    expect(revokedAudit.details).toEqual({ revoked: 1 });
  });

  it('past its validity the client can no longer accept (409), but can decline; the workspace still can record it', async () => {
    const { e, token } = await sentEstimate({ issue_date: day(-20), valid_until: day(-2) });
    expect((await page(token)).json().estimate).toMatchObject({ valid_until: day(-2), expired: true, can_answer: true });
    const before = await snapshot(e.id);
    const late = await accept(token);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: 'conflict', field: 'valid_until', message: `This estimate was valid until ${day(-2)}; ask the sender for a new one.` });
    expect(await snapshot(e.id)).toEqual(before);
    expect((await decline(token)).json().estimate.state).toBe('declined');

    const recorded = await sentEstimate({ issue_date: day(-20), valid_until: day(-2) });
    expect((await api(s.owner, 'POST', `/web/api/estimates/${recorded.e.id}/accept`)).json()).toMatchObject({ state: 'accepted', answered_by_client: false });
  });

  it('counts the answers in the public routes’ budget per address', async () => {
    const limited = await createTestContext({ env: { RATE_LIMIT_MAX: '3' } });
    try {
      const call = (url: string) =>
        limited.app.inject({ method: 'POST', url, payload: { token: 'A'.repeat(43), ...(url.endsWith('/accept') ? { version: 'v' } : {}) }, remoteAddress: '203.0.113.20' });
      const answers = [await call('/web/api/client-page/accept'), await call('/web/api/client-page/decline'), await call('/web/api/client-page/accept'), await call('/web/api/client-page/decline')];
      expect(answers.map((r) => r.statusCode)).toEqual([404, 404, 404, 429]);
      expect(Number(answers[3].headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('the estimate page’s links', () => {
  it('whoever may see the estimate reads and revokes them; members 403; out of reach and other workspaces 404; API keys 403', async () => {
    const { e } = await sentEstimate();
    const theirClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
    const otherSession = await sessionFor(ctx.db, other.owner, ctx.clock.now());
    const theirs = await api(otherSession, 'POST', '/web/api/estimates', { client_id: theirClient, line_items: [{ description: 'X', quantity: 1, unit_price: 1 }] });
    expect(theirs.statusCode, theirs.body).toBe(201);
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await api(s.member, method, `/web/api/estimates/${e.id}/client-links`)).statusCode).toBe(403);
      expect((await api(s.mgrPlain, method, `/web/api/estimates/${e.id}/client-links`)).statusCode).toBe(404);
      expect((await api(s.owner, method, `/web/api/estimates/${theirs.json().id}/client-links`)).statusCode).toBe(404);
      const keyed = await api(w.owner, method, `/web/api/estimates/${e.id}/client-links`);
      expect(keyed.statusCode).toBe(403);
      expect(keyed.json().error).toBe('session_required');
    }
    expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}/client-links`)).json()).toMatchObject({ active_links: 1 });
  });
});

describe('valid_until', () => {
  it('is optional, not before the issue date (400 naming it, nothing written), and printed', async () => {
    const none = await estimate({ valid_until: undefined });
    expect(none.valid_until).toBeNull();
    const count = async () => (await ctx.db.selectFrom('estimates').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow()).n;
    const n = await count();
    const early = await api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, issue_date: '2026-05-10', valid_until: '2026-05-09', line_items: [{ description: 'x', quantity: 1, unit_price: 1 }] });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ error: 'invalid_request', field: 'valid_until' });
    expect(await count()).toBe(n);
    for (const bad of ['2026-02-30x', 'soon', 5]) {
      expect((await api(s.owner, 'PATCH', `/web/api/estimates/${none.id}`, { valid_until: bad })).statusCode).toBe(400);
    }
    const set = await api(s.owner, 'PATCH', `/web/api/estimates/${none.id}`, { valid_until: day(10) });
    expect(set.json().valid_until).toBe(day(10));
    // Moving the issue date past it is refused too.
    const moved = await api(s.owner, 'PATCH', `/web/api/estimates/${none.id}`, { issue_date: day(11) });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().field).toBe('valid_until');
    expect((await api(s.owner, 'PATCH', `/web/api/estimates/${none.id}`, { valid_until: null })).json().valid_until).toBeNull();
  });
});

describe('the send dialogs’ first recipients', () => {
  it('the client’s invoice e-mail address alone when it has one, else its contacts with an e-mail, else none', async () => {
    const client = await insertClient(ctx.db, w.companyId, { name: 'Initech' });
    const invoice = (await api(w.owner, 'POST', '/api/v2/invoices', { client_id: client, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] })).json();
    const est = await estimate({ client_id: client });
    const both = async () => [
      (await api(s.owner, 'GET', `/web/api/invoices/${invoice.id}/recipients`)).json(),
      (await api(s.owner, 'GET', `/web/api/estimates/${est.id}/recipients`)).json(),
    ];
    expect(await both()).toEqual([
      { source: 'none', recipients: [] },
      { source: 'none', recipients: [] },
    ]);
    for (const c of [
      { first_name: 'Zoe', last_name: 'Young', email: 'zoe@initech.test' },
      { first_name: 'Adam', last_name: 'Able', email: 'adam@initech.test' },
      { first_name: 'No', last_name: 'Mail' },
    ]) {
      expect((await api(w.owner, 'POST', '/api/v2/contacts', { client_id: client, ...c })).statusCode).toBe(201);
    }
    const contacts = {
      source: 'contacts',
      recipients: [
        { name: 'Adam Able', email: 'adam@initech.test' },
        { name: 'Zoe Young', email: 'zoe@initech.test' },
      ],
    };
    expect(await both()).toEqual([contacts, contacts]);
    expect((await api(w.owner, 'PATCH', `/api/v2/clients/${client}`, { invoice_email: 'ap@initech.test' })).statusCode).toBe(200);
    const invoiceEmail = { source: 'invoice_email', recipients: [{ name: 'Initech', email: 'ap@initech.test' }] };
    expect(await both()).toEqual([invoiceEmail, invoiceEmail]);

    for (const url of [`/web/api/invoices/${invoice.id}/recipients`, `/web/api/estimates/${est.id}/recipients`]) {
      expect((await api(s.member, 'GET', url)).statusCode).toBe(403);
      expect((await api(s.mgrPlain, 'GET', url)).statusCode).toBe(404);
      expect((await api(w.owner, 'GET', url)).json().error).toBe('session_required');
      expect((await api(s.owner, 'GET', `${url}?x=1`)).statusCode).toBe(400);
    }
    const otherSession = await sessionFor(ctx.db, other.owner, ctx.clock.now());
    expect((await api(otherSession, 'GET', `/web/api/invoices/${invoice.id}/recipients`)).statusCode).toBe(404);
    expect((await api(otherSession, 'GET', `/web/api/estimates/${est.id}/recipients`)).statusCode).toBe(404);
  });
});
