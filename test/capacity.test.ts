import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPerson, makeApprovalWorkspace, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';
import { insertEntryRow } from './fixtures/catalog.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Working capacity (issue 26 item 1): working patterns, time off and public holidays
 * (entered and imported from iCalendar), break rules, through the web routes (round
 * trips, bad input with nothing written, roles, tenancy), and the approval preflight's
 * warnings they drive: hours below expected (a week with a holiday expects less), time
 * outside working capacity (a day off), break_missing.
 */

let ctx: TestContext;
let w: ApprovalWorkspace;
let foreign: ApprovalWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'member', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeApprovalWorkspace(ctx.db);
  foreign = await makeApprovalWorkspace(ctx.db, { name: 'Elsewhere' });
  for (const who of ['owner', 'admin', 'manager', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
});
afterAll(() => ctx.close());

const web = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), ...(field ? { field } : {}) });
}

async function rows(table: 'planning_time_off' | 'planning_working_patterns', companyId = w.companyId) {
  const r = await ctx.db.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow();
  return r.n;
}

const FULL_WEEK = { monday: 8, tuesday: 8, wednesday: 8, thursday: 8, friday: 8 };

describe('working patterns', () => {
  it('sets, changes and deletes a pattern; the capacity follows it', async () => {
    const person = await freshPerson(ctx.db, w);
    const made = await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-01-01', ...FULL_WEEK, friday: 4 });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ user_id: person.userId, monday: 8, friday: 4, saturday: 0, weekly_hours: 36 });
    const later = await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-06-10', ...FULL_WEEK });
    expect(later.statusCode, later.body).toBe(201);
    const cap = await web(s.admin, 'GET', `/web/api/capacity?user_id=${person.userId}&from=2026-06-08&to=2026-06-14`);
    expect(cap.json()).toMatchObject({ total_hours: 8 + 8 + 8 + 8 + 8, days: [{ date: '2026-06-08', hours: 8 }, {}, {}, {}, { date: '2026-06-12', hours: 8 }, { hours: 0 }, { hours: 0 }] });
    const earlier = await web(s.admin, 'GET', `/web/api/capacity?user_id=${person.userId}&from=2026-06-01&to=2026-06-05`);
    expect(earlier.json().total_hours).toBe(36);
    const patched = await web(s.admin, 'PATCH', `/web/api/working_patterns/${later.json().id}`, { friday: 6 });
    expect(patched.json()).toMatchObject({ friday: 6, weekly_hours: 38 });
    expect((await web(s.admin, 'GET', `/web/api/working_patterns?user_id=${person.userId}`)).json().working_patterns.map((p: { effective_from: string }) => p.effective_from)).toEqual([
      '2026-01-01',
      '2026-06-10',
    ]);
    expect((await web(s.admin, 'DELETE', `/web/api/working_patterns/${later.json().id}`)).statusCode).toBe(204);
  });

  it('keeps hours typed as minutes (7:20 a day) to the micro-hour: a week of 36:40, not 36:39', async () => {
    const person = await freshPerson(ctx.db, w);
    const day = 7 + 20 / 60; // 7.333333333333333, as the form sends 7:20
    const made = await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-01-01', monday: day, tuesday: day, wednesday: day, thursday: day, friday: day });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ monday: 7.333333, weekly_hours: 36.666665 });
    // Whole seconds, as the pages show hours: 36:40:00.
    expect(Math.round(made.json().weekly_hours * 3600)).toBe(36 * 3600 + 40 * 60);
    const cap = await web(s.admin, 'GET', `/web/api/capacity?user_id=${person.userId}&from=2026-06-08&to=2026-06-14`);
    expect(cap.json().total_hours).toBe(36.666665);
    // Time off by the hour too: 2:40 off on one day.
    const off = await web(s.admin, 'POST', '/web/api/time_off', { user_id: person.userId, kind: 'other', starts_on: '2026-06-09', hours: 2 + 40 / 60 });
    expect(off.statusCode, off.body).toBe(201);
    expect(off.json().hours).toBe(2.666667);
  });

  it('refuses bad patterns with a 400 naming the field, and writes nothing', async () => {
    const person = await freshPerson(ctx.db, w);
    const before = await rows('planning_working_patterns');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user_id: person.userId, effective_from: '2026-01-01', monday: -1 }, 'monday'],
      [{ user_id: person.userId, effective_from: '2026-01-01', tuesday: 25 }, 'tuesday'],
      [{ user_id: person.userId, effective_from: '2026-01-01', friday: '8' }, 'friday'],
      [{ user_id: person.userId, effective_from: '2026-02-30' }, 'effective_from'],
      [{ user_id: person.userId }, 'effective_from'],
      [{ user_id: person.userId, effective_from: '2026-01-01', holiday: 3 }, 'holiday'],
    ];
    for (const [body, field] of cases) {
      const res = await web(s.admin, 'POST', '/web/api/working_patterns', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field ?? res.json().error_description, JSON.stringify(body)).toContain(field);
    }
    expect((await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-01-01' })).statusCode).toBe(201);
    expectError(await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-01-01' }), 400, 'invalid_request', 'effective_from');
    expect(await rows('planning_working_patterns')).toBe(before + 1);
  });

  it('lets administrators set patterns; others read only their own (managers their teammates)', async () => {
    expectError(await web(s.member, 'POST', '/web/api/working_patterns', { user_id: w.member.userId, effective_from: '2026-01-01' }), 403, 'forbidden');
    expectError(await web(s.manager, 'POST', '/web/api/working_patterns', { user_id: w.member.userId, effective_from: '2026-01-01' }), 403, 'forbidden');
    expect((await web(s.member, 'GET', `/web/api/working_patterns?user_id=${w.member.userId}`)).statusCode).toBe(200);
    expectError(await web(s.member, 'GET', `/web/api/working_patterns?user_id=${w.admin.userId}`), 403, 'forbidden');
    expectError(await web(s.member, 'GET', '/web/api/working_patterns'), 403, 'forbidden');
    // The fixture's manager has the member as teammate.
    expect((await web(s.manager, 'GET', `/web/api/capacity?user_id=${w.member.userId}&from=2026-06-01&to=2026-06-07`)).statusCode).toBe(200);
    expectError(await web(s.manager, 'GET', `/web/api/capacity?user_id=${w.other.userId}&from=2026-06-01&to=2026-06-07`), 403, 'forbidden');
  });
});

describe('time off and holidays', () => {
  it('records a person\u2019s own time off and refuses an overlap, naming starts_on', async () => {
    const person = await freshPerson(ctx.db, w);
    const me = await sessionFor(ctx.db, person, ctx.clock.now());
    const made = await web(me, 'POST', '/web/api/time_off', { kind: 'vacation', starts_on: '2026-07-06', ends_on: '2026-07-10', name: 'Sea' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ user_id: person.userId, kind: 'vacation', hours: null, name: 'Sea' });
    const before = await rows('planning_time_off');
    const overlap = await web(me, 'POST', '/web/api/time_off', { kind: 'sick', starts_on: '2026-07-10', ends_on: '2026-07-11' });
    expectError(overlap, 400, 'invalid_request', 'starts_on');
    expect(overlap.json()).toMatchObject({ overlapping_id: made.json().id, overlapping_starts_on: '2026-07-06', overlapping_ends_on: '2026-07-10' });
    // Hours of a day: a half day next to it is fine.
    expect((await web(me, 'POST', '/web/api/time_off', { kind: 'other', starts_on: '2026-07-13', hours: 4 })).statusCode).toBe(201);
    // Moving the first onto the second overlaps too.
    expectError(await web(me, 'PATCH', `/web/api/time_off/${made.json().id}`, { ends_on: '2026-07-13' }), 400, 'invalid_request', 'starts_on');
    expect(await rows('planning_time_off')).toBe(before + 1);
    const listed = (await web(me, 'GET', '/web/api/time_off?from=2026-07-01&to=2026-07-31')).json().time_off;
    expect(listed.map((t: { kind: string }) => t.kind)).toEqual(['vacation', 'other']);
  });

  it('refuses bad time off with a 400 naming the field', async () => {
    const before = await rows('planning_time_off');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'holiday', starts_on: '2026-08-03' }, 'kind'],
      [{ kind: 'vacation', starts_on: '2026-08-05', ends_on: '2026-08-03' }, 'ends_on'],
      [{ kind: 'vacation', starts_on: '2026-08-03', hours: 0 }, 'hours'],
      [{ kind: 'vacation', starts_on: '2026-08-03', hours: 0.0000001 }, 'hours'],
      [{ kind: 'vacation', starts_on: '2026-08-03', hours: 25 }, 'hours'],
      [{ kind: 'vacation', starts_on: '2026-08-03', hours: -2 }, 'hours'],
      [{ kind: 'vacation', starts_on: '2025-01-01', ends_on: '2026-12-31' }, 'ends_on'],
      [{ kind: 'vacation' }, 'starts_on'],
      [{ kind: 'vacation', starts_on: 'tomorrow' }, 'starts_on'],
    ];
    for (const [body, field] of cases) {
      const res = await web(s.member, 'POST', '/web/api/time_off', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field ?? res.json().error_description, JSON.stringify(body)).toContain(field);
    }
    expect(await rows('planning_time_off')).toBe(before);
  });

  it('lets only administrators record others\u2019 time off and holidays', async () => {
    expectError(await web(s.member, 'POST', '/web/api/time_off', { user_id: w.other.userId, kind: 'vacation', starts_on: '2026-08-10' }), 403, 'forbidden');
    expectError(await web(s.member, 'POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: '2026-08-10' }), 403, 'forbidden');
    expectError(await web(s.admin, 'POST', '/web/api/time_off', { user_id: null, kind: 'vacation', starts_on: '2026-08-10' }), 400, 'invalid_request', 'kind');
    expect((await web(s.admin, 'POST', '/web/api/time_off', { user_id: w.other.userId, kind: 'sick', starts_on: '2026-08-10' })).statusCode).toBe(201);
  });

  it('imports holidays from an iCalendar file, once', async () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Sheaf//Test//EN',
      'BEGIN:VEVENT',
      'UID:1',
      'DTSTART;VALUE=DATE:20270101',
      'SUMMARY:Neujahr',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:2',
      'DTSTART;VALUE=DATE:20270405',
      'SUMMARY:Ostermontag',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const first = await web(s.admin, 'POST', '/web/api/holidays/import', { calendar: ics, year: 2027 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ imported: 2, existing: 0, skipped: 0 });
    expect((await web(s.admin, 'POST', '/web/api/holidays/import', { calendar: ics, year: 2027 })).json()).toEqual({ imported: 0, existing: 2, skipped: 0 });
    const seen = (await web(s.member, 'GET', '/web/api/time_off?from=2027-01-01&to=2027-12-31')).json().time_off;
    expect(seen.map((t: { name: string; user_id: null }) => [t.name, t.user_id])).toEqual([
      ['Neujahr', null],
      ['Ostermontag', null],
    ]);
    const before = await rows('planning_time_off');
    expectError(await web(s.admin, 'POST', '/web/api/holidays/import', { calendar: 'not a calendar', year: 2027 }), 400, 'invalid_request', 'calendar');
    expectError(await web(s.member, 'POST', '/web/api/holidays/import', { calendar: ics, year: 2027 }), 403, 'forbidden');
    expect(await rows('planning_time_off')).toBe(before);
  });

  it("gives 404 for another workspace's patterns, time off and people", async () => {
    const theirs = await web(await sessionFor(ctx.db, foreign.owner, ctx.clock.now()), 'POST', '/web/api/time_off', { kind: 'vacation', starts_on: '2026-09-01' });
    expect(theirs.statusCode).toBe(201);
    expectError(await web(s.owner, 'PATCH', `/web/api/time_off/${theirs.json().id}`, { name: 'x' }), 404, 'not_found');
    expectError(await web(s.owner, 'DELETE', `/web/api/time_off/${theirs.json().id}`), 404, 'not_found');
    expectError(await web(s.owner, 'GET', `/web/api/capacity?user_id=${foreign.owner.userId}&from=2026-09-01&to=2026-09-07`), 404, 'not_found');
    expectError(await web(s.owner, 'POST', '/web/api/working_patterns', { user_id: foreign.member.userId, effective_from: '2026-01-01' }), 404, 'not_found');
    expect(await rows('planning_working_patterns', foreign.companyId)).toBe(0);
  });
});

describe('editing a holiday', () => {
  // Holidays of 2029: no other test here looks at that year (the home page's week is today's).
  const holiday = async (body: Record<string, unknown>) => {
    const res = await web(s.admin, 'POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; updated_at: string; [k: string]: unknown };
  };
  const stored = (id: string) => ctx.db.selectFrom('planning_time_off').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const capacityOn = async (userId: string, date: string) => (await web(s.admin, 'GET', `/web/api/capacity?user_id=${userId}&from=${date}&to=${date}`)).json().days[0];

  it('changes a half day into a whole day, its name and days; capacity follows, and the change is audited', async () => {
    const person = await freshPerson(ctx.db, w);
    await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2029-01-01', ...FULL_WEEK });
    const eve = await holiday({ starts_on: '2029-12-24', hours: 4, name: 'Heiligabend (halber Tag)' });
    expect(eve).toMatchObject({ user_id: null, kind: 'public_holiday', starts_on: '2029-12-24', ends_on: '2029-12-24', hours: 4 });
    expect(await capacityOn(person.userId, '2029-12-24')).toMatchObject({ hours: 4, off_hours: 4, whole_day_off: false });

    // 3.5 hours (as the form sends 3,5), then the whole day, a new name and one more day.
    const half = await web(s.owner, 'PATCH', `/web/api/time_off/${eve.id}`, { hours: 3.5 });
    expect(half.statusCode, half.body).toBe(200);
    expect(half.json()).toMatchObject({ hours: 3.5, name: 'Heiligabend (halber Tag)' });
    const whole = await web(s.admin, 'PATCH', `/web/api/time_off/${eve.id}`, { name: 'Heiligabend', starts_on: '2029-12-24', ends_on: '2029-12-25', hours: null });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json()).toMatchObject({ id: eve.id, user_id: null, kind: 'public_holiday', name: 'Heiligabend', starts_on: '2029-12-24', ends_on: '2029-12-25', hours: null });
    expect(await capacityOn(person.userId, '2029-12-24')).toMatchObject({ hours: 0, whole_day_off: true });
    expect(await capacityOn(person.userId, '2029-12-25')).toMatchObject({ hours: 0, whole_day_off: true });
    // The person sees the holiday as changed.
    const me = await sessionFor(ctx.db, person, ctx.clock.now());
    const seen = (await web(me, 'GET', '/web/api/time_off?from=2029-12-01&to=2029-12-31')).json().time_off;
    expect(seen).toEqual([expect.objectContaining({ id: eve.id, name: 'Heiligabend', hours: null, ends_on: '2029-12-25' })]);

    const log = await ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('company_id', '=', w.companyId)
      .where('action', '=', 'time_off.updated')
      .where(sql<boolean>`details->>'id' = ${eve.id}`)
      .orderBy('id')
      .execute();
    expect(log.map((l) => [l.actor_user_id, l.subject_type, l.subject_id])).toEqual([
      [w.owner.userId, 'workspace', null],
      [w.admin.userId, 'workspace', null],
    ]);
    expect(log[1]!.details).toMatchObject({ id: eve.id, changes: ['name', 'starts_on', 'ends_on', 'hours'] });
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const h = await holiday({ starts_on: '2029-11-01', hours: 4, name: 'Allerheiligen' });
    const before = await stored(h.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hours: 0 }, 'hours'],
      [{ hours: 0.0000001 }, 'hours'],
      [{ hours: 25 }, 'hours'],
      [{ hours: -4 }, 'hours'],
      [{ hours: '4' }, 'hours'],
      [{ ends_on: '2029-10-31' }, 'ends_on'],
      [{ starts_on: '2029-11-02' }, 'ends_on'],
      [{ starts_on: '2028-01-01', ends_on: '2029-11-01' }, 'ends_on'],
      [{ starts_on: '2029-02-30' }, 'starts_on'],
      [{ kind: 'vacation' }, 'kind'],
      [{ kind: 'holiday' }, 'kind'],
      [{ user_id: w.member.userId }, 'user_id'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await web(s.admin, 'PATCH', `/web/api/time_off/${h.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field ?? res.json().error_description, JSON.stringify(body)).toContain(field);
    }
    expect((await web(s.admin, 'PATCH', `/web/api/time_off/${h.id}`, {})).statusCode).toBe(400);
    expect(await stored(h.id)).toEqual(before);
  });

  it('refuses a change onto another holiday, naming starts_on; time off of a person on the day is no clash', async () => {
    const first = await holiday({ starts_on: '2029-10-03', name: 'Tag der Deutschen Einheit' });
    const second = await holiday({ starts_on: '2029-10-31', name: 'Reformationstag' });
    const person = await freshPerson(ctx.db, w);
    expect((await web(s.admin, 'POST', '/web/api/time_off', { user_id: person.userId, kind: 'vacation', starts_on: '2029-10-15', ends_on: '2029-10-19' })).statusCode).toBe(201);
    const before = await stored(second.id);
    const onto = await web(s.admin, 'PATCH', `/web/api/time_off/${second.id}`, { starts_on: '2029-10-02', ends_on: '2029-10-04' });
    expectError(onto, 400, 'invalid_request', 'starts_on');
    expect(onto.json()).toMatchObject({ overlapping_id: first.id, overlapping_starts_on: '2029-10-03', overlapping_ends_on: '2029-10-03' });
    expect(await stored(second.id)).toEqual(before);
    // Over the person's vacation (another owner's), and over its own old day: both fine.
    const moved = await web(s.admin, 'PATCH', `/web/api/time_off/${second.id}`, { starts_on: '2029-10-16', ends_on: '2029-10-31', hours: 2 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ starts_on: '2029-10-16', ends_on: '2029-10-31', hours: 2 });
  });

  it('lets only owners and administrators change a holiday', async () => {
    const h = await holiday({ starts_on: '2029-05-01', name: 'Tag der Arbeit' });
    const before = await stored(h.id);
    for (const who of ['member', 'manager'] as const) {
      expectError(await web(s[who], 'PATCH', `/web/api/time_off/${h.id}`, { hours: 4 }), 403, 'forbidden');
      expectError(await web(s[who], 'DELETE', `/web/api/time_off/${h.id}`), 403, 'forbidden');
    }
    // A member's own time off does not become a holiday either.
    const own = await web(s.member, 'POST', '/web/api/time_off', { kind: 'vacation', starts_on: '2029-05-02' });
    expect(own.statusCode, own.body).toBe(201);
    expectError(await web(s.member, 'PATCH', `/web/api/time_off/${own.json().id}`, { kind: 'public_holiday' }), 403, 'forbidden');
    expect(await stored(h.id)).toEqual(before);
    expect((await web(s.owner, 'PATCH', `/web/api/time_off/${h.id}`, { hours: 4 })).json()).toMatchObject({ hours: 4 });
  });

  it("gives 404 for another workspace's holiday, and for an id that is none", async () => {
    const foreignOwner = await sessionFor(ctx.db, foreign.owner, ctx.clock.now());
    const theirs = await web(foreignOwner, 'POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: '2029-01-01', name: 'Their New Year' });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const before = await stored(theirs.json().id);
    expectError(await web(s.owner, 'PATCH', `/web/api/time_off/${theirs.json().id}`, { name: 'Ours now', hours: 4 }), 404, 'not_found');
    expectError(await web(s.admin, 'PATCH', `/web/api/time_off/${theirs.json().id}`, { starts_on: '2029-01-02' }), 404, 'not_found');
    expectError(await web(s.owner, 'DELETE', `/web/api/time_off/${theirs.json().id}`), 404, 'not_found');
    expectError(await web(s.owner, 'PATCH', '/web/api/time_off/019a0000-0000-7000-8000-000000000000', { hours: 4 }), 404, 'not_found');
    expectError(await web(s.owner, 'PATCH', '/web/api/time_off/not-an-id', { hours: 4 }), 404, 'not_found');
    expect(await stored(theirs.json().id)).toEqual(before);
    // Their holiday does not clash with ours on the same day.
    expect((await web(s.admin, 'POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: '2029-01-01', name: 'Neujahr' })).statusCode).toBe(201);
  });
});

describe("the approval preflight's warnings", () => {
  /** A fresh person with entries (hours, or [start, end] times) on days of the week of 2026-06-15, submitted. */
  async function submittedWeek(entries: Array<{ date: string; hours?: number; times?: [string, string] }>) {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
    for (const e of entries) {
      const seconds = e.times ? (Number(e.times[1].slice(0, 2)) * 60 + Number(e.times[1].slice(3)) - Number(e.times[0].slice(0, 2)) * 60 - Number(e.times[0].slice(3))) * 60 : e.hours! * 3600;
      const id = await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: e.date, seconds });
      if (e.times) await ctx.db.updateTable('time_entries').set({ started_time: e.times[0], ended_time: e.times[1] }).where('id', '=', id).execute();
    }
    expect((await submitAs(ctx.app, person, { from: '2026-06-15', to: '2026-06-21' })).statusCode).toBe(200);
    return person;
  }
  const preflight = async (person: Caller) => {
    const res = await request(ctx.app, w.admin, { method: 'POST', url: '/api/v2/approvals/approve', payload: { user_id: person.userId, from: '2026-06-15', to: '2026-06-21' } });
    expect(res.statusCode, res.body).toBe(409);
    return res.json().preflight.warnings as Array<{ code: string; [k: string]: unknown }>;
  };

  it('expects less in a week with a holiday, and nothing on a day off', async () => {
    const days = ['2026-06-15', '2026-06-16', '2026-06-17', '2026-06-18'].map((date) => ({ date, hours: 8 }));
    const person = await submittedWeek(days);
    await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-01-01', ...FULL_WEEK });
    // 32 h of 40 expected: below.
    expect((await preflight(person)).map((x) => [x.code, x.expected_hours])).toEqual([['hours_below_expected', 40]]);
    // Friday a holiday: 32 expected, nothing to warn about.
    const holiday = await web(s.admin, 'POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: '2026-06-19', name: 'Test holiday' });
    expect(holiday.statusCode, holiday.body).toBe(201);
    const res = await request(ctx.app, w.admin, { method: 'POST', url: '/api/v2/approvals/approve', payload: { user_id: person.userId, from: '2026-06-15', to: '2026-06-21' } });
    expect(res.statusCode, res.body).toBe(200);
    await web(s.admin, 'DELETE', `/web/api/time_off/${holiday.json().id}`);
  });

  it('warns of time on a day the person has off', async () => {
    const person = await submittedWeek(['2026-06-15', '2026-06-16', '2026-06-17', '2026-06-18', '2026-06-19'].map((date) => ({ date, hours: 8 })));
    await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2026-01-01', ...FULL_WEEK });
    await web(s.admin, 'POST', '/web/api/time_off', { user_id: person.userId, kind: 'vacation', starts_on: '2026-06-19' });
    const warnings = await preflight(person);
    expect(warnings.map((x) => x.code)).toEqual(['outside_working_capacity']);
    expect(warnings[0]).toMatchObject({ capacity_hours: 32, dates: ['2026-06-19'] });
  });

  it('warns break_missing on a day with less break than the rules need', async () => {
    const set = await web(s.admin, 'PUT', '/web/api/break_rules', { break_rules: [{ after_hours: 9, break_minutes: 45 }, { after_hours: 6, break_minutes: 30 }] });
    expect(set.json()).toEqual({ break_rules: [{ after_hours: '6', break_minutes: 30 }, { after_hours: '9', break_minutes: 45 }] });
    try {
      const person = await submittedWeek([
        // 7 h with a 15-minute gap: short.
        { date: '2026-06-15', times: ['08:00', '12:00'] },
        { date: '2026-06-15', times: ['12:15', '15:15'] },
        // 7 h with 30 minutes: enough.
        { date: '2026-06-16', times: ['08:00', '12:00'] },
        { date: '2026-06-16', times: ['12:30', '15:30'] },
        // 7 h without times: breaks unknown, not judged.
        { date: '2026-06-17', hours: 7 },
      ]);
      const warnings = await preflight(person);
      expect(warnings.find((x) => x.code === 'break_missing')).toMatchObject({ dates: ['2026-06-15'], days: [{ date: '2026-06-15', break_minutes: 15, required_minutes: 30 }] });
      expectError(await web(s.admin, 'PUT', '/web/api/break_rules', { break_rules: [{ after_hours: 6, break_minutes: 30 }, { after_hours: 6, break_minutes: 40 }] }), 400, 'invalid_request', 'break_rules');
      expectError(await web(s.admin, 'PUT', '/web/api/break_rules', { break_rules: [{ after_hours: 0, break_minutes: 30 }] }), 400, 'invalid_request');
      expectError(await web(s.member, 'PUT', '/web/api/break_rules', { break_rules: [] }), 403, 'forbidden');
      expect((await web(s.member, 'GET', '/web/api/break_rules')).json().break_rules).toHaveLength(2);
    } finally {
      await web(s.admin, 'PUT', '/web/api/break_rules', { break_rules: [] });
    }
  });
});

describe('the home page', () => {
  it("shows the week's expected hours from the pattern, less a holiday", async () => {
    const person = await freshPerson(ctx.db, w);
    const me = await sessionFor(ctx.db, person, ctx.clock.now());
    await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person.userId, effective_from: '2020-01-01', ...FULL_WEEK, saturday: 2, sunday: 2 });
    const before = (await web(me, 'GET', '/web/api/home')).json().week;
    expect(before.expected_hours).toBe(44);
    const day = before.days.find((d: { expected_hours: number }) => d.expected_hours === 8).date;
    const off = await web(me, 'POST', '/web/api/time_off', { kind: 'vacation', starts_on: day });
    expect(off.statusCode, off.body).toBe(201);
    const after = (await web(me, 'GET', '/web/api/home')).json().week;
    expect(after.expected_hours).toBe(36);
    expect(after.days.find((d: { date: string }) => d.date === day).expected_hours).toBe(0);
  });
});

describe('the backup', () => {
  it('exports patterns and time off as records', async () => {
    const patterns = (await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/planning_working_patterns?per_page=500' })).json();
    expect(patterns.records.length).toBeGreaterThan(0);
    expect(patterns.records[0]).toMatchObject({ user_id: expect.any(String), effective_from: expect.any(String), monday: expect.any(String) });
    expect(patterns.records[0]).not.toHaveProperty('company_id');
    const off = (await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/planning_time_off?per_page=500' })).json();
    expect(off.records.some((r: { user_id: string | null; name: string }) => r.user_id === null && r.name === 'Neujahr')).toBe(true);
  });
});
