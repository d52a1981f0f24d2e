import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { invoiceRenderers } from '../src/modules/billing/invoices/pdf.ts';
import { createSmtpTransport } from '../src/outbox/mailer.ts';
import { deliverDueMessages } from '../src/outbox/worker.ts';
import { addMember, createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTeammate } from './fixtures/catalog.ts';
import { assignUser, billableProject, insertClient, insertTask, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import { startSmtp } from './fixtures/smtp.ts';

/**
 * The web app's time screens (issue 16) and private internal notes: the notes are
 * read and written only through /web/api/time_entries/:id/private_notes (and the
 * web-only timesheet), by those who may edit the entry, and never leave through an
 * API response, list, report, backup, invoice PDF or e-mail.
 */

let ctx: TestContext;
const api = (caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
let w: InvoiceWorkspace;
let project: { projectId: string; taskId: string };
let clientId: string;
const s: Record<'member' | 'owner' | 'other' | 'teamManager' | 'plainManager', Caller> = {} as never;

const PLANT = 'PLANTEDxPRIVATEx7Q';
const PUBLIC = 'Homepage hero section';

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db, { invoice_before_approval: true }); // unapproved time can be invoiced
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Initech' });
  project = await billableProject(ctx.db, w.companyId, clientId, { rate: '100', name: 'Website' });
  await assignUser(ctx.db, w.companyId, project.projectId, w.member.userId);
  const other = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Otto', lastName: 'Other' });
  await assignUser(ctx.db, w.companyId, project.projectId, other.userId);
  const teamManager = await addMember(ctx.db, w.companyId, { role: 'manager', firstName: 'Tess', lastName: 'Team' });
  await assignTeammate(ctx.db, w.companyId, teamManager.userId, w.member.userId);
  s.member = await sessionFor(ctx.db, w.member, ctx.clock.now());
  s.owner = await sessionFor(ctx.db, w.owner, ctx.clock.now());
  s.other = await sessionFor(ctx.db, other, ctx.clock.now());
  s.teamManager = await sessionFor(ctx.db, teamManager, ctx.clock.now());
  s.plainManager = await sessionFor(ctx.db, w.mgrPlain, ctx.clock.now());
});
afterAll(() => ctx.close());

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ error });
  expect(typeof body.error_description).toBe('string');
  expect(body.message).toBe(body.error_description);
  if (field) expect(body.field).toBe(field);
}

async function memberEntry(date = '2026-02-03', hours = 2) {
  const res = await api(s.member, 'POST', '/api/v2/time_entries', {
    project_id: project.projectId,
    task_id: project.taskId,
    spent_date: date,
    hours,
    notes: PUBLIC,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; updated_at: string };
}

const notesUrl = (id: string) => `/web/api/time_entries/${id}/private_notes`;

describe('private internal notes', () => {
  it('are kept for the author, shown in the timesheet, and change nothing the API shows', async () => {
    const entry = await memberEntry('2026-02-02');
    expect((await api(s.member, 'GET', notesUrl(entry.id))).json()).toEqual({ id: entry.id, private_notes: null });

    const put = await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: `Client was late: ${PLANT}` });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ id: entry.id, private_notes: `Client was late: ${PLANT}` });
    expect((await api(s.member, 'GET', notesUrl(entry.id))).json().private_notes).toBe(`Client was late: ${PLANT}`);

    const sheet = (await api(s.member, 'GET', '/web/api/timesheet?date=2026-02-04')).json();
    const row = sheet.entries.find((e: { id: string }) => e.id === entry.id);
    expect(row).toMatchObject({ private_notes: `Client was late: ${PLANT}`, notes: PUBLIC, project: { name: 'Website' }, client: { name: 'Initech' } });

    // The entry as the API shows it did not change (no new updated_at that API clients would chase).
    const viaApi = (await api(w.member, 'GET', `/api/v2/time_entries/${entry.id}`)).json();
    expect(viaApi.updated_at).toBe(entry.updated_at);

    // Blank clears them.
    expect((await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: '  ' })).json().private_notes).toBeNull();
    await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: `Client was late: ${PLANT}` });
  });

  it('are for those who may edit the entry: others get 404 (cannot see it) or 403 (see, may not edit)', async () => {
    const entry = await memberEntry('2026-02-03');
    await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: PLANT });

    for (const who of [s.other, s.plainManager]) {
      expectError(await api(who, 'GET', notesUrl(entry.id)), 404, 'not_found');
      expectError(await api(who, 'PUT', notesUrl(entry.id), { private_notes: 'mine now' }), 404, 'not_found');
    }
    // A manager who sees the member's time may edit it, so reads and writes the notes; so does the owner.
    expect((await api(s.teamManager, 'GET', notesUrl(entry.id))).json().private_notes).toBe(PLANT);
    expect((await api(s.owner, 'PUT', notesUrl(entry.id), { private_notes: `${PLANT} (owner)` })).statusCode).toBe(200);
    expect((await api(s.member, 'GET', notesUrl(entry.id))).json().private_notes).toBe(`${PLANT} (owner)`);

    // An API key never reaches them, not even the owner's full-access one.
    expectError(await api(w.owner, 'GET', notesUrl(entry.id)), 403, 'session_required');
    expectError(await api(w.owner, 'PUT', notesUrl(entry.id), { private_notes: 'x' }), 403, 'session_required');
    // Unknown and malformed ids are a 404, not a 500.
    expectError(await api(s.member, 'GET', notesUrl('nope')), 404, 'not_found');
  });

  it('refuses bad input with the field named', async () => {
    const entry = await memberEntry('2026-02-04');
    expectError(await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: 'x'.repeat(10_001) }), 400, 'invalid_request', 'private_notes');
    expect((await api(s.member, 'PUT', notesUrl(entry.id), { notes: 'x' })).statusCode).toBe(400);
    expect((await api(s.member, 'GET', notesUrl(entry.id))).json().private_notes).toBeNull();
  });

  it('never appear in API responses, lists, reports, backup, invoice PDF or e-mail', async () => {
    const entry = await memberEntry('2026-02-05', 3);
    await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: PLANT });
    const readers = [w.owner, w.admin, w.member, s.member, s.owner];
    const urls = [
      `/api/v2/time_entries/${entry.id}`,
      '/api/v2/time_entries?per_page=2000',
      '/api/v2/time_entries?from=2026-02-01&to=2026-02-28',
      '/api/v2/reports/time/team?from=20260201&to=20260228',
      '/api/v2/reports/uninvoiced?from=20260201&to=20260228',
      '/api/v2/backup/time_entries?per_page=500',
      '/api/v2/backup',
    ];
    for (const caller of readers) {
      for (const url of urls) {
        const res = await api(caller, 'GET', url);
        expect(res.body, `${url}`).not.toContain(PLANT);
      }
    }
    // The answers to writes neither.
    const patched = await api(s.member, 'PATCH', `/api/v2/time_entries/${entry.id}`, { notes: `${PUBLIC}!` });
    expect(patched.statusCode).toBe(200);
    expect(patched.body).not.toContain(PLANT);
    expect(Object.keys(patched.json())).not.toContain('private_notes');

    // An invoice with one line per entry carries the notes, not the private notes.
    const inv = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      line_items_import: { project_ids: [project.projectId], time: { summary_type: 'detailed' } },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.body).toContain(PUBLIC);
    expect(inv.body).not.toContain(PLANT);
    const pdf = await api(w.owner, 'GET', `/api/v2/invoices/${inv.json().id}/pdf`);
    const { text } = await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true });
    expect(text.replace(/\s+/g, ' ')).toContain(PUBLIC);
    expect(text).not.toContain(PLANT);

    const smtp = await startSmtp();
    try {
      const sent = await api(w.owner, 'POST', `/api/v2/invoices/${inv.json().id}/messages`, {
        recipients: [{ email: 'ap@initech.test' }],
        subject: 'Invoice',
        attach_pdf: true,
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const delivered = await deliverDueMessages({
        db: ctx.db,
        transport: createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`, { from: 'Acme Billing <billing@acme.test>' }),
        renderers: invoiceRenderers,
        clock: ctx.clock.now,
        log: { warn: () => {} },
      });
      expect(delivered).toBe(1);
      expect(smtp.received[0].raw).not.toContain(PLANT);
      // The attached PDF is the one checked above; its text has no private notes either.
      const pdfPart = /Content-Type: application\/pdf[^]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(smtp.received[0].raw);
      expect(pdfPart).not.toBeNull();
      const attached = await extractText(new Uint8Array(Buffer.from(pdfPart![1].replace(/\s+/g, ''), 'base64')), { mergePages: true });
      expect(attached.text.replace(/\s+/g, ' ')).toContain(PUBLIC);
      expect(attached.text).not.toContain(PLANT);
    } finally {
      await smtp.close();
    }
    // Still there for the author.
    expect((await api(s.member, 'GET', notesUrl(entry.id))).json().private_notes).toBe(PLANT);
  });
});

describe('timesheet and timer (web only)', () => {
  it('gives the week in the workspace settings, with only the caller\u2019s entries and what they may record on', async () => {
    const archivedTask = await insertTask(ctx.db, w.companyId, 'Old task');
    await ctx.db.insertInto('project_task_assignments').values({ company_id: w.companyId, project_id: project.projectId, task_id: archivedTask, is_active: false }).execute();
    const elsewhere = await billableProject(ctx.db, w.companyId, clientId, { name: 'Not mine' });
    await api(s.other, 'POST', '/api/v2/time_entries', { project_id: project.projectId, task_id: project.taskId, spent_date: '2026-02-03', hours: 1 });

    const res = await api(s.member, 'GET', '/web/api/timesheet?date=2026-02-04');
    expect(res.statusCode, res.body).toBe(200);
    const sheet = res.json();
    expect(sheet).toMatchObject({ from: '2026-02-02', to: '2026-02-08', settings: { week_start: 'monday' } });
    expect(sheet.entries.every((e: { user_id: string }) => e.user_id === w.member.userId)).toBe(true);
    // The choices are not re-sent with every week (issue 21): GET /web/api/time_choices has them.
    expect(sheet).not.toHaveProperty('choices');
    expect((await api(s.member, 'GET', '/web/api/time_choices')).json().choices).toEqual([
      expect.objectContaining({ project_id: project.projectId, task_id: project.taskId, client_name: 'Initech', project_name: 'Website', billable: true }),
    ]);
    // The owner may record anywhere (the create rule), so sees the other project too.
    const ownerChoices = (await api(s.owner, 'GET', '/web/api/time_choices')).json().choices;
    expect(ownerChoices.map((c: { project_id: string }) => c.project_id)).toContain(elsewhere.projectId);

    expectError(await api(s.member, 'GET', '/web/api/timesheet?date=0999-01-01'), 400, 'invalid_request', 'date');
    expectError(await api(w.member, 'GET', '/web/api/timesheet'), 403, 'session_required');
  });

  it('shows the running timer with its project, and none once stopped', async () => {
    expect((await api(s.member, 'GET', '/web/api/timer')).json()).toMatchObject({ running: null });
    const started = await api(s.member, 'POST', '/api/v2/time_entries', { project_id: project.projectId, task_id: project.taskId, is_running: true });
    expect(started.statusCode, started.body).toBe(201);
    const { running } = (await api(s.member, 'GET', '/web/api/timer')).json();
    expect(running).toMatchObject({ id: started.json().id, is_running: true, project: { name: 'Website' }, client: { name: 'Initech' } });
    expect((await api(s.member, 'PATCH', `/api/v2/time_entries/${running.id}/stop`)).statusCode).toBe(200);
    expect((await api(s.member, 'GET', '/web/api/timer')).json()).toMatchObject({ running: null });
  });

  it('tells a running timer\u2019s earlier runs apart from the current one: fresh 0, restarted its first run (issue 21 item 2)', async () => {
    const started = await api(s.member, 'POST', '/api/v2/time_entries', { project_id: project.projectId, task_id: project.taskId, is_running: true });
    expect(started.statusCode, started.body).toBe(201);
    ctx.clock.advance(22_000);
    let { running } = (await api(s.member, 'GET', '/web/api/timer')).json();
    // duration_seconds already holds the 22 s run (the API's meaning); earlier_seconds none of it.
    expect(running).toMatchObject({ id: started.json().id, duration_seconds: 22, earlier_seconds: 0 });
    expect((await api(s.member, 'PATCH', `/api/v2/time_entries/${running.id}/stop`)).statusCode).toBe(200);
    ctx.clock.advance(60_000);
    const restarted = await api(s.member, 'PATCH', `/api/v2/time_entries/${running.id}/restart`, {});
    expect(restarted.statusCode, restarted.body).toBe(200);
    ctx.clock.advance(5_000);
    ({ running } = (await api(s.member, 'GET', '/web/api/timer')).json());
    expect(running).toMatchObject({ duration_seconds: 27, earlier_seconds: 22, is_running: true });
    expect(Date.parse(ctx.clock.now().toISOString()) - Date.parse(running.timer_started_at)).toBe(5_000);
    // The week shows it the same way; a stopped entry's earlier_seconds is its duration.
    const sheet = (await api(s.member, 'GET', `/web/api/timesheet?date=${running.spent_date}`)).json();
    expect(sheet.entries.find((e: { id: string }) => e.id === running.id)).toMatchObject({ duration_seconds: 27, earlier_seconds: 22 });
    expect((await api(s.member, 'PATCH', `/api/v2/time_entries/${running.id}/stop`)).statusCode).toBe(200);
    const stopped = (await api(s.member, 'GET', `/web/api/timesheet?date=${running.spent_date}`)).json();
    expect(stopped.entries.find((e: { id: string }) => e.id === running.id)).toMatchObject({ duration_seconds: 27, earlier_seconds: 27, is_running: false });
  });

  it('names the caller\u2019s recently used project-task pairs, most recent first, only their own', async () => {
    const design = await insertTask(ctx.db, w.companyId, 'Recent design');
    await ctx.db.insertInto('project_task_assignments').values({ company_id: w.companyId, project_id: project.projectId, task_id: design, is_active: true }).execute();
    const post = (caller: Caller, task: string, date: string) =>
      api(caller, 'POST', '/api/v2/time_entries', { project_id: project.projectId, task_id: task, spent_date: date, hours: 1 });
    expect((await post(s.member, design, '2030-05-04')).statusCode).toBe(201);
    expect((await post(s.member, project.taskId, '2030-05-05')).statusCode).toBe(201);
    expect((await post(s.other, design, '2030-05-06')).statusCode).toBe(201); // someone else's use changes nothing
    let { recent } = (await api(s.member, 'GET', '/web/api/timer')).json();
    expect(recent.slice(0, 2)).toEqual([
      { project_id: project.projectId, task_id: project.taskId },
      { project_id: project.projectId, task_id: design },
    ]);
    expect((await post(s.member, design, '2030-05-07')).statusCode).toBe(201);
    ({ recent } = (await api(s.member, 'GET', '/web/api/timer')).json());
    expect(recent.map((r: { task_id: string }) => r.task_id)).toEqual([design, project.taskId]);
  });
});

describe('time choices: a strong ETag, 304 while unchanged (issue 21)', () => {
  const choices = (caller: Caller, etag?: string) => api(caller, 'GET', '/web/api/time_choices', undefined).then(async (r) => (etag ? request(ctx.app, caller, { method: 'GET', url: '/web/api/time_choices', headers: { 'if-none-match': etag } }) : r));

  it('answers 304 without a body to the current tag, 200 with a new tag after a project, task or assignment change', async () => {
    const first = await choices(s.member);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers['cache-control']).toBe('private, no-store');

    const same = await choices(s.member, etag);
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect((await choices(s.member, `W/${etag}`)).statusCode).toBe(304); // weak comparison, as If-None-Match uses
    expect((await choices(s.member, `"other", ${etag}`)).statusCode).toBe(304);
    expect((await choices(s.member, '"stale"')).statusCode).toBe(200);

    // Each change gives a new tag, and the old one gets the full list.
    let current = etag;
    const changed = async (what: string) => {
      const res = await choices(s.member, current);
      expect(res.statusCode, what).toBe(200);
      expect(res.headers.etag, what).not.toBe(current);
      current = res.headers.etag as string;
      return res.json().choices as { project_name: string; task_name: string }[];
    };
    expect((await api(s.owner, 'PATCH', `/api/v2/projects/${project.projectId}`, { name: 'Website relaunch' })).statusCode).toBe(200);
    expect((await changed('project renamed')).map((c) => c.project_name)).toContain('Website relaunch');
    expect((await api(s.owner, 'PATCH', `/api/v2/tasks/${project.taskId}`, { name: 'Renamed task' })).statusCode).toBe(200);
    expect((await changed('task renamed')).map((c) => c.task_name)).toContain('Renamed task');
    const extra = await billableProject(ctx.db, w.companyId, clientId, { name: 'Newly assigned' });
    expect((await choices(s.member, current)).statusCode).toBe(304); // not assigned to the member: their list is unchanged
    await assignUser(ctx.db, w.companyId, extra.projectId, w.member.userId);
    expect((await changed('assigned')).map((c) => c.project_name)).toContain('Newly assigned');
    // Another person's list has its own tag.
    expect((await choices(s.other)).headers.etag).not.toBe(current);
  });
});

describe('timesheet of another person (user_id)', () => {
  const week = (caller: Caller, userId: string) => api(caller, 'GET', `/web/api/timesheet?date=2026-03-11&user_id=${userId}`);

  it('gives a manager their teammate\u2019s week, and an owner anyone\u2019s, without the private notes', async () => {
    const entry = await memberEntry('2026-03-10', 3);
    expect((await api(s.member, 'PUT', notesUrl(entry.id), { private_notes: PLANT })).statusCode).toBe(200);
    for (const caller of [s.teamManager, s.owner]) {
      const res = await week(caller, w.member.userId);
      expect(res.statusCode, res.body).toBe(200);
      const sheet = res.json();
      expect(sheet.user.id).toBe(w.member.userId);
      expect(sheet.entries.map((e: { id: string }) => e.id)).toEqual([entry.id]);
      expect(sheet.entries[0]).toMatchObject({ user_id: w.member.userId, hours: 3, private_notes: null });
      expect(res.body).not.toContain(PLANT);
    }
    // The caller's own week is unchanged by the parameter's existence.
    const own = (await api(s.teamManager, 'GET', '/web/api/timesheet?date=2026-03-11')).json();
    expect(own.user.id).not.toBe(w.member.userId);
    expect(own.entries).toEqual([]);
  });

  it('refuses a member another person\u2019s week (403), and anyone a person not in the workspace (404)', async () => {
    await memberEntry('2026-03-12', 1);
    const refused = await week(s.other, w.member.userId);
    expectError(refused, 403, 'forbidden');
    expect(refused.body).not.toContain(PUBLIC);
    expectError(await week(s.owner, '00000000-0000-4000-8000-000000000000'), 404, 'not_found', 'user_id');
    expectError(await week(s.teamManager, 'not-an-id'), 404, 'not_found', 'user_id');
    // Their own id is their own week.
    const self = await week(s.member, w.member.userId);
    expect(self.statusCode, self.body).toBe(200);
    expect(self.json().entries.length).toBeGreaterThan(0);
  });
});
