import { parse } from 'csv-parse/sync';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { addMember, createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertClient, postEntry, setNow } from './fixtures/catalog.ts';
import { approveAs, freshPerson, makeApprovalWorkspace, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';

/**
 * The audit page (issue 28 item 4) against records written by real actions: sign-ins
 * (succeeded and failed, with the address and browser), keys created and revoked, a role
 * change, a settings change, an invoice sent, an approval, a withdrawal and a deletion;
 * its filters, keyset pages and CSV; who may see it; and one workspace never sees
 * another's. Then item 5: an administrator signs a member out everywhere, and
 * deactivation ends a member's sessions.
 */

let ctx: TestContext;
let w: ApprovalWorkspace;
let foreign: ApprovalWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'member', Caller> = {} as never;
let foreignAdmin: Caller;
const PASSWORD = 'correct horse battery staple';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

type Entry = {
  id: string;
  occurred_at: string;
  action: string;
  kinds: string[];
  actor: { type: string; user_id: string | null; name: string | null; key_id: string | null; key_label: string | null };
  subject: { type: string; id: string | null; label: string | null };
  address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
};

const get = (caller: Caller, url: string) => request(ctx.app, caller, { method: 'GET', url });
const send = (caller: Caller, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => request(ctx.app, caller, { method, url, payload });

/** Every entry the filters select, following next_before to the end. */
async function all(caller: Caller, query = ''): Promise<Entry[]> {
  const out: Entry[] = [];
  let before: string | null = null;
  do {
    const res = await get(caller, `/web/api/audit_logs?per_page=200${query}${before ? `&before=${before}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    out.push(...res.json().audit_logs);
    before = res.json().next_before;
  } while (before);
  return out;
}

const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/web/api/session', payload: { email, password }, headers: { 'user-agent': BROWSER } });
const sessionHeaders = (res: LightMyRequestResponse) => ({ cookie: String(res.headers['set-cookie']).split(';')[0], 'x-csrf-token': res.json().csrf_token as string });
const asCaller = (userId: string, companyId: string, headers: Record<string, string>): Caller => ({ userId, companyId, email: '', key: '', keyId: '', headers });

const ids: Record<string, string> = {};
let pat: Caller;
let signedIn: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, '2026-06-10T10:00:00.000Z');
  w = await makeApprovalWorkspace(ctx.db, { name: 'Audited' });
  foreign = await makeApprovalWorkspace(ctx.db, { name: 'Elsewhere' });
  // Setting a password ends the person's sessions: first the password, then the sessions.
  await setPassword(ctx.db, w.member.userId, PASSWORD);
  for (const who of ['owner', 'admin', 'manager', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  foreignAdmin = await sessionFor(ctx.db, foreign.admin, ctx.clock.now());

  // Sign-ins: the member with the right password, then a wrong one; an unknown address.
  const ok = await signIn(w.member.email, PASSWORD);
  expect(ok.statusCode, ok.body).toBe(200);
  signedIn = asCaller(w.member.userId, w.companyId, sessionHeaders(ok));
  expect((await signIn(w.member.email, 'not the password')).statusCode).toBe(401);
  expect((await signIn('nobody-at-all@example.com', PASSWORD)).statusCode).toBe(401);
  // The other workspace's people sign in and fail too.
  await setPassword(ctx.db, foreign.member.userId, PASSWORD);
  expect((await signIn(foreign.member.email, PASSWORD)).statusCode).toBe(200);
  expect((await signIn(foreign.member.email, 'wrong')).statusCode).toBe(401);

  // A key created and revoked by the administrator.
  const key = await send(s.admin, 'POST', '/web/api/keys', { kind: 'integration', name: 'Zapier sync' });
  expect(key.statusCode, key.body).toBe(201);
  ids.key = key.json().key.id;
  expect((await send(s.admin, 'DELETE', `/web/api/keys/${ids.key}`)).statusCode).toBe(204);

  // A role change and a settings change.
  pat = await freshPerson(ctx.db, w, { teammateOf: w.manager });
  const role = await send(s.admin, 'PATCH', `/web/api/members/${pat.userId}`, { role: 'manager' });
  expect(role.statusCode, role.body).toBe(200);
  await send(s.admin, 'PATCH', `/web/api/members/${pat.userId}`, { role: 'member' });
  const settings = await send(s.owner, 'PATCH', '/web/api/workspace', { name: 'Audited GmbH' });
  expect(settings.statusCode, settings.body).toBe(200);

  // An invoice sent, with the owner's API key.
  ids.client = await insertClient(ctx.db, w.companyId, 'Globex');
  const invoice = await request(ctx.app, w.owner, {
    method: 'POST',
    url: '/api/v2/invoices',
    payload: { client_id: ids.client, issue_date: '2026-06-01', payment_term: 'net_30', line_items: [{ description: 'Consulting', quantity: 2, unit_price: 100 }] },
  });
  expect(invoice.statusCode, invoice.body).toBe(201);
  ids.invoice = invoice.json().id;
  ids.invoiceNumber = invoice.json().number;
  const sent = await request(ctx.app, w.owner, { method: 'POST', url: `/api/v2/invoices/${ids.invoice}/messages`, payload: { recipients: [{ email: 'bill@globex.test' }] } });
  expect(sent.statusCode, sent.body).toBe(201);

  // An approval and its withdrawal.
  expect((await postEntry(ctx.app, pat, { project_id: w.project, task_id: w.task, spent_date: '2026-06-01', hours: 2 })).statusCode).toBe(201);
  expect((await submitAs(ctx.app, pat, { from: '2026-06-01', to: '2026-06-07' })).statusCode).toBe(200);
  expect((await approveAs(ctx.app, w.owner, { user_id: pat.userId, from: '2026-06-01', to: '2026-06-07' })).statusCode).toBe(200);
  const withdrawn = await send(s.admin, 'POST', '/web/api/approvals/withdraw', { user_id: pat.userId, from: '2026-06-01', to: '2026-06-07', reason: 'Too early' });
  expect(withdrawn.statusCode, withdrawn.body).toBe(200);

  // A deletion, with the owner's key.
  ids.deleted = await insertClient(ctx.db, w.companyId, 'Initech');
  const foreignClient = await insertClient(ctx.db, foreign.companyId, 'Foreign Ltd');
  // Archived first, as deleting asks.
  await ctx.db.updateTable('clients').set({ is_active: false }).where('id', 'in', [ids.deleted, foreignClient]).execute();
  expect((await request(ctx.app, w.owner, { method: 'DELETE', url: `/api/v2/clients/${ids.deleted}`, headers: { 'if-match': '*' } })).statusCode).toBe(204);
  // The other workspace deletes a client too.
  expect((await request(ctx.app, foreign.owner, { method: 'DELETE', url: `/api/v2/clients/${foreignClient}`, headers: { 'if-match': '*' } })).statusCode).toBe(204);
});
afterAll(() => ctx.close());

const one = (entries: Entry[], action: string, where: (e: Entry) => boolean = () => true) => {
  const found = entries.filter((e) => e.action === action && where(e));
  expect(found, action).toHaveLength(1);
  return found[0];
};

describe('GET /web/api/audit_logs', () => {
  it('shows every audited action with who, what, the subject and the sign-in address', async () => {
    const log = await all(s.admin);
    const member = 'Mia member';
    const okSignIn = one(log, 'session.signed_in', (e) => e.subject.id === w.member.userId);
    expect(okSignIn).toMatchObject({
      kinds: ['sign_ins'],
      actor: { type: 'user', user_id: w.member.userId, name: member, key_id: null, key_label: null },
      subject: { type: 'user', id: w.member.userId, label: member },
      address: '127.0.0.1',
      user_agent: BROWSER,
      details: { method: 'password' },
    });
    expect(one(log, 'session.sign_in_failed', (e) => e.subject.id === w.member.userId)).toMatchObject({
      actor: { type: 'user', user_id: w.member.userId },
      address: '127.0.0.1',
      user_agent: BROWSER,
      details: { reason: 'wrong_password', method: 'password' },
    });
    expect(one(log, 'credential.created', (e) => e.subject.id === ids.key)).toMatchObject({
      kinds: ['keys'],
      actor: { type: 'user', user_id: w.admin.userId },
      subject: { type: 'credential', label: 'Zapier sync' },
    });
    expect(one(log, 'credential.revoked', (e) => e.subject.id === ids.key).actor.user_id).toBe(w.admin.userId);
    const roles = log.filter((e) => e.action === 'member.updated' && e.subject.id === pat.userId);
    expect(roles.map((e) => e.details.role)).toEqual(['member', 'manager']);
    expect(roles[0]).toMatchObject({ kinds: ['people'], actor: { user_id: w.admin.userId }, subject: { label: 'Pat member' } });
    expect(one(log, 'workspace.settings_changed')).toMatchObject({ kinds: ['settings'], actor: { user_id: w.owner.userId } });
    // Done with the owner's API key: the key names the actor.
    expect(one(log, 'invoice.send')).toMatchObject({
      kinds: ['invoices'],
      actor: { type: 'key', user_id: w.owner.userId, key_id: w.owner.keyId },
      subject: { type: 'invoice', id: ids.invoice, label: ids.invoiceNumber },
    });
    expect(one(log, 'invoice.send').actor.key_label).toMatch(/^\S+/);
    expect(one(log, 'timesheet.approved', (e) => e.subject.id === pat.userId)).toMatchObject({ kinds: ['approvals'], actor: { type: 'key', user_id: w.owner.userId } });
    expect(one(log, 'timesheet.approval_withdrawn', (e) => e.subject.id === pat.userId)).toMatchObject({
      kinds: ['approvals'],
      actor: { type: 'user', user_id: w.admin.userId },
      details: { reason: 'Too early' },
    });
    // A deleted subject keeps the name its record kept.
    expect(one(log, 'client.deleted', (e) => e.subject.id === ids.deleted)).toMatchObject({ kinds: ['records', 'deletions'], subject: { label: 'Initech' } });
    // The workspace's creation by the operator names no person.
    expect(one(log, 'workspace.created').actor).toEqual({ type: 'operator', user_id: null, name: null, key_id: null, key_label: null });
    // Newest first.
    const times = log.map((e) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('never shows another workspace’s records, nor a failed sign-in for an unknown address', async () => {
    const log = await all(s.admin);
    const foreignPeople = new Set([foreign.owner.userId, foreign.admin.userId, foreign.member.userId, foreign.manager.userId]);
    expect(log.filter((e) => foreignPeople.has(e.actor.user_id ?? '') || foreignPeople.has(e.subject.id ?? ''))).toEqual([]);
    expect(log.filter((e) => e.subject.label === 'Foreign Ltd')).toEqual([]);
    expect(await all(s.admin, `&person_id=${foreign.member.userId}`)).toEqual([]);
    // The other workspace sees its own, and none of these.
    const theirs = await all(foreignAdmin);
    expect(one(theirs, 'session.sign_in_failed', (e) => e.subject.id === foreign.member.userId).address).toBe('127.0.0.1');
    const mine = new Set(log.map((e) => e.id));
    expect(theirs.filter((e) => mine.has(e.id))).toEqual([]);
    // Nobody's log holds the unknown address's attempt.
    const rows = await ctx.db.selectFrom('audit_logs').select('details').where('action', '=', 'session.sign_in_failed').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('nobody-at-all');
  });

  it('filters by person, by kind and by period (days in the workspace’s time zone)', async () => {
    const everything = await all(s.admin);
    const byAdmin = await all(s.admin, `&person_id=${w.admin.userId}`);
    expect(byAdmin.length).toBeGreaterThanOrEqual(5);
    expect(byAdmin.every((e) => e.actor.user_id === w.admin.userId)).toBe(true);
    expect(byAdmin.map((e) => e.id)).toEqual(everything.filter((e) => e.actor.user_id === w.admin.userId).map((e) => e.id));

    const signIns = await all(s.admin, '&kind=sign_ins');
    expect(signIns.map((e) => e.action).sort()).toEqual(['session.sign_in_failed', 'session.signed_in']);
    const keys = await all(s.admin, '&kind=keys');
    expect(new Set(keys.map((e) => e.action))).toEqual(new Set(['credential.created', 'credential.revoked']));
    const deletions = await all(s.admin, '&kind=deletions');
    expect(deletions.length).toBeGreaterThan(0);
    expect(deletions.every((e) => /(deleted|removed)$/.test(e.action))).toBe(true);
    expect(deletions.map((e) => e.subject.id)).toContain(ids.deleted);
    const settings = await all(s.admin, '&kind=settings');
    expect(settings.map((e) => e.action)).toContain('workspace.settings_changed');
    expect(settings.every((e) => e.kinds.includes('settings'))).toBe(true);
    const approvals = await all(s.admin, '&kind=approvals');
    expect(new Set(approvals.map((e) => e.action))).toEqual(new Set(['timesheet.submitted', 'timesheet.approved', 'timesheet.approval_withdrawn']));
    // Person and kind together.
    expect((await all(s.admin, `&kind=keys&person_id=${w.owner.userId}`))).toEqual([]);

    // The rows were written now (the database's clock): today is in, yesterday and tomorrow are out.
    const today = new Date().toISOString().slice(0, 10);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect((await all(s.admin, `&from=${day(-1)}&to=${day(1)}`)).map((e) => e.id)).toEqual(everything.map((e) => e.id));
    expect(await all(s.admin, `&from=${day(2)}`)).toEqual([]);
    expect(await all(s.admin, `&to=${day(-2)}`)).toEqual([]);
    expect((await all(s.admin, `&from=${today}&kind=sign_ins`)).length).toBeGreaterThanOrEqual(0);
  });

  it('answers bad filters with 400 naming the field', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-06-10&to=2026-06-01', 'to'],
      ['person_id=not-an-id', 'person_id'],
      ['before=xyz', 'before'],
    ] as const) {
      const res = await get(s.admin, `/web/api/audit_logs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', field });
    }
    for (const query of ['kind=everything', 'per_page=0', 'per_page=201', 'colour=red']) {
      const res = await get(s.admin, `/web/api/audit_logs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatch(/^(invalid_request|unknown_field)$/);
    }
  });

  it('pages newest first after the last row shown, without gaps or repeats', async () => {
    const everything = await all(s.admin);
    expect(everything.length).toBeGreaterThan(10);
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const res = await get(s.admin, `/web/api/audit_logs?per_page=3${before ? `&before=${before}` : ''}`);
      const body = res.json();
      expect(body.audit_logs.length).toBeLessThanOrEqual(3);
      seen.push(...body.audit_logs.map((e: Entry) => e.id));
      before = body.next_before;
      pages++;
    } while (before);
    expect(seen).toEqual(everything.map((e) => e.id));
    expect(pages).toBe(Math.ceil(everything.length / 3) + (everything.length % 3 === 0 ? 1 : 0) || 1);
    // The last page says so.
    const last = await get(s.admin, `/web/api/audit_logs?per_page=${everything.length}`);
    expect(last.json().next_before).toBeNull();
    // Another workspace's entry id as the cursor continues nothing.
    const theirs = await all(foreignAdmin);
    expect((await get(s.admin, `/web/api/audit_logs?before=${theirs[0].id}`)).json()).toEqual({ audit_logs: [], next_before: null });
  });

  it('refuses members and managers (403), and every API key (session only)', async () => {
    for (const who of [s.member, s.manager]) {
      for (const url of ['/web/api/audit_logs', '/web/api/audit_logs.csv']) {
        const res = await get(who, url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
    }
    const byKey = await get(w.owner, '/web/api/audit_logs');
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe('session_required');
    expect((await get(s.owner, '/web/api/audit_logs')).statusCode).toBe(200);
  });
});

describe('GET /web/api/audit_logs.csv', () => {
  it('streams the filtered log as CSV, times in the workspace’s zone, with the page’s rows', async () => {
    await ctx.db.updateTable('companies').set({ timezone: 'Europe/Berlin' }).where('id', '=', w.companyId).execute();
    const res = await get(s.admin, '/web/api/audit_logs.csv?kind=sign_ins');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log\.csv"/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const rows: Record<string, string>[] = parse(res.body, { bom: true, columns: true });
    const page = await all(s.admin, '&kind=sign_ins');
    expect(rows.map((r) => r.Action)).toEqual(page.map((e) => e.action));
    const ok = rows.find((r) => r.Action === 'session.signed_in')!;
    expect(ok).toMatchObject({ Actor: 'Mia member', 'Actor user id': w.member.userId, Address: '127.0.0.1', 'User agent': BROWSER, Kinds: 'sign_ins', 'Subject type': 'user', Subject: 'Mia member' });
    // Berlin's offset: +01:00 in winter, +02:00 in summer.
    expect(ok.Time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    const instant = page.find((e) => e.action === 'session.signed_in')!.occurred_at;
    expect(Date.parse(ok.Time)).toBe(Math.floor(Date.parse(instant) / 1000) * 1000);
    expect(JSON.parse(ok.Details)).toMatchObject({ method: 'password', address: '127.0.0.1' });

    const all_ = parse((await get(s.admin, '/web/api/audit_logs.csv')).body, { bom: true, columns: true }) as Record<string, string>[];
    expect(all_.length).toBe((await all(s.admin)).length);
    const keyRow = all_.find((r) => r.Action === 'invoice.send')!;
    expect(keyRow['API key']).not.toBe('');
    expect(all_.find((r) => r.Action === 'workspace.created')!.Actor).toBe('Operator');
    const bad = await get(s.admin, '/web/api/audit_logs.csv?from=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('from');
  });
});

describe('the backup’s audit_logs', () => {
  it('holds the same records as the page', async () => {
    const page = await all(s.admin);
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/audit_logs?per_page=500' });
    expect(res.statusCode, res.body).toBe(200);
    const records: { id: string; action: string; actor_user_id: string | null; details: Record<string, unknown> }[] = res.json().records;
    expect(new Set(records.map((r) => r.id))).toEqual(new Set(page.map((e) => e.id)));
    const signIn = records.find((r) => r.action === 'session.signed_in')!;
    expect(signIn).toMatchObject({ actor_user_id: w.member.userId, details: { address: '127.0.0.1', user_agent: BROWSER } });
  });
});

describe('ending a member’s sessions (DELETE /web/api/members/:id/sessions)', () => {
  it('signs the person out everywhere at once and records it, e-mailing nobody', async () => {
    expect((await get(signedIn, '/web/api/session')).statusCode).toBe(200);
    const second = await sessionFor(ctx.db, w.member, ctx.clock.now());
    const outbox = await ctx.db.selectFrom('outbox').select('id').where('company_id', '=', w.companyId).execute();
    const res = await send(s.admin, 'DELETE', `/web/api/members/${w.member.userId}/sessions`);
    expect(res.statusCode, res.body).toBe(200);
    // The password sign-in's, the second one's and the page's member session.
    expect(res.json()).toEqual({ ended: 3 });
    for (const caller of [signedIn, second, s.member]) {
      const after = await get(caller, '/web/api/session');
      expect(after.statusCode).toBe(401);
    }
    expect(await ctx.db.selectFrom('sessions').select('id').where('user_id', '=', w.member.userId).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('outbox').select('id').where('company_id', '=', w.companyId).execute()).toHaveLength(outbox.length);
    const entry = one(await all(s.admin, '&kind=sign_ins'), 'session.ended_all', (e) => e.subject.id === w.member.userId);
    expect(entry).toMatchObject({ actor: { type: 'user', user_id: w.admin.userId }, details: { sessions_ended: 3 } });
    // The administrator's own session goes on.
    expect((await get(s.admin, '/web/api/session')).statusCode).toBe(200);
  });

  it('is 404 for another workspace’s member or an unknown id, and 403 for non-administrators and for an owner by an administrator', async () => {
    const foreignSession = await sessionFor(ctx.db, foreign.member, ctx.clock.now());
    for (const id of [foreign.member.userId, '0190a0a0-0000-7000-8000-000000000000', 'nope']) {
      const res = await send(s.admin, 'DELETE', `/web/api/members/${id}/sessions`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await get(foreignSession, '/web/api/session')).statusCode).toBe(200);
    const target = await sessionFor(ctx.db, pat, ctx.clock.now());
    for (const who of [s.manager, await sessionFor(ctx.db, w.other, ctx.clock.now())]) {
      const res = await send(who, 'DELETE', `/web/api/members/${pat.userId}/sessions`);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect((await send(s.admin, 'DELETE', `/web/api/members/${w.owner.userId}/sessions`)).statusCode).toBe(403);
    expect((await get(target, '/web/api/session')).statusCode).toBe(200);
    expect((await get(s.owner, '/web/api/session')).statusCode).toBe(200);
  });
});

describe('deactivating a member', () => {
  it('ends their sessions in the workspace', async () => {
    const person = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Dee' });
    const session = await sessionFor(ctx.db, person, ctx.clock.now());
    expect((await get(session, '/web/api/session')).statusCode).toBe(200);
    const res = await send(s.admin, 'PATCH', `/web/api/members/${person.userId}`, { is_active: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ctx.db.selectFrom('sessions').select('id').where('user_id', '=', person.userId).execute()).toEqual([]);
    expect((await get(session, '/web/api/session')).statusCode).toBe(401);
    const entry = one(await all(s.admin, `&person_id=${w.admin.userId}&kind=people`), 'member.updated', (e) => e.subject.id === person.userId);
    expect(entry.details).toMatchObject({ is_active: false, sessions_ended: 1 });
  });
});

describe('what the log records of member, role and saved-report changes', () => {
  const changesOf = async (userId: string) =>
    (await all(s.owner, `&kind=people`)).filter((e) => e.action === 'member.updated' && e.subject.id === userId).map((e) => e.details);

  it('says when a member was deactivated or reactivated, and not when a save left them as they were', async () => {
    const person = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Reva' });
    await sessionFor(ctx.db, person, ctx.clock.now());
    for (const body of [{ is_active: false }, { is_active: true, role: 'member' }, { is_active: true, role: 'member' }]) {
      const res = await send(s.admin, 'PATCH', `/web/api/members/${person.userId}`, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    // Newest first: the form's save that changed nothing, the reactivation, the deactivation.
    const details = await changesOf(person.userId);
    expect(details.map((d) => d.activation ?? null)).toEqual([null, 'reactivated', 'deactivated']);
    expect(details[2]).toMatchObject({ is_active: false, sessions_ended: 1 });
  });

  it('records the teammates and permissions a manager loses by leaving the role, one entry per teammate', async () => {
    const manny = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Manny' });
    const [ted, tia] = [await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Ted' }), await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Tia' })];
    const made = await send(s.owner, 'PATCH', `/web/api/members/${manny.userId}`, { role: 'manager', permissions: ['view_billable_rates'], teammate_ids: [ted.userId, tia.userId] });
    expect(made.statusCode, made.body).toBe(200);
    const promoted = await send(s.owner, 'PATCH', `/web/api/members/${manny.userId}`, { role: 'administrator' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ role: 'administrator', permissions: [], teammate_ids: [] });

    const log = await all(s.owner, '&kind=people');
    const unassigned = log.filter((e) => e.action === 'teammate.unassigned' && e.details.manager_id === manny.userId);
    expect(unassigned.map((e) => e.subject.id).sort()).toEqual([ted.userId, tia.userId].sort());
    for (const e of unassigned) expect(e).toMatchObject({ actor: { user_id: w.owner.userId }, details: { reason: 'manager_role_changed' } });
    expect((await changesOf(manny.userId))[0]).toMatchObject({ role: 'administrator', teammates_unassigned: 2, permissions_removed: ['view_billable_rates'] });
    // A role change that takes nothing away says nothing of it.
    const again = await send(s.owner, 'PATCH', `/web/api/members/${manny.userId}`, { role: 'member' });
    expect(again.statusCode, again.body).toBe(200);
    const latest = (await changesOf(manny.userId))[0];
    expect(latest).not.toHaveProperty('teammates_unassigned');
    expect(latest).not.toHaveProperty('permissions_removed');
  });

  it('names a saved report by its name, on the page and in the CSV, also after it was deleted', async () => {
    const made = await send(s.owner, 'POST', '/web/api/saved_reports', { name: 'Monthly hours', report: 'time' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    expect((await send(s.owner, 'PATCH', `/web/api/saved_reports/${id}`, { name: 'Hours by month' })).statusCode).toBe(200);
    const labels = async () => Object.fromEntries((await all(s.owner, '&kind=records')).filter((e) => e.subject.id === id).map((e) => [e.action, e.subject.label]));
    expect(await labels()).toEqual({ 'saved_report.created': 'Hours by month', 'saved_report.updated': 'Hours by month' });
    const csv = parse((await get(s.owner, '/web/api/audit_logs.csv?kind=records')).body, { bom: true, columns: true }) as Record<string, string>[];
    expect(csv.find((r) => r.Action === 'saved_report.updated' && r['Subject id'] === id)!.Subject).toBe('Hours by month');
    expect((await send(s.owner, 'DELETE', `/web/api/saved_reports/${id}`)).statusCode).toBe(204);
    expect(await labels()).toEqual({ 'saved_report.created': 'Monthly hours', 'saved_report.updated': 'Hours by month', 'saved_report.deleted': 'Hours by month' });
  });
});
