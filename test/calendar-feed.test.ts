import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertEntryRow, insertRate, makeTimeWorkspace, postEntry, setNow, type TimeWorkspace } from './fixtures/catalog.ts';

/**
 * A person's calendar feed (issue 27 item 4): made, rotated and revoked on the
 * profile page (web routes, the person's own session), read without sign-in at
 * its secret URL as iCalendar; only the person's own entries and plan, never
 * anyone else's or a rate.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
let mia: Caller;
let otto: Caller;
let foreignMember: Caller;
const NOW = '2026-06-10T10:00:00.000Z';
const ids: Record<string, string> = {};

async function plan(t: TimeWorkspace, userId: string, values: { starts_on: string; ends_on: string; hours_per_day?: string; total_hours?: string; notes?: string }, project = t.project) {
  const id = newId();
  await ctx.db
    .insertInto('planning_assignments')
    .values({ company_id: t.companyId, id, project_id: project, user_id: userId, hours_per_day: null, total_hours: null, notes: null, ...values })
    .execute();
  return id;
}

beforeAll(async () => {
  ctx = await createTestContext({ config: { publicUrl: 'https://sheaf.example' } });
  setNow(ctx.clock, NOW);
  w = await makeTimeWorkspace(ctx.db, { timezone: 'Europe/Berlin' });
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Foreign' });
  await insertRate(ctx.db, w.companyId, { projectId: w.project }, '2026-01-01', '95.50');
  const post = async (name: string, caller: Caller, body: Record<string, unknown>) => {
    const res = await postEntry(ctx.app, caller, { project_id: w.project, task_id: w.task, ...body });
    expect(res.statusCode, res.body).toBe(201);
    ids[name] = res.json().id;
  };
  await post('hours', w.member, { spent_date: '2026-06-08', hours: 2.5, notes: 'Mia wrote the release notes' });
  await post('third', w.member, { spent_date: '2026-06-10', hours: 1.333333 });
  await post('timed', w.member, { spent_date: '2026-06-09', started_time: '09:00', ended_time: '10:30', notes: 'Mia reviewed' });
  await post('running', w.member, { is_running: true, project_id: w.managed, task_id: w.managedTask });
  await post('otto', w.other, { spent_date: '2026-06-08', hours: 3, notes: 'Otto’s secret work' });
  ids.old = await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2024-01-02' });
  ids.plan = await plan(w, w.member.userId, { starts_on: '2026-06-15', ends_on: '2026-06-19', hours_per_day: '6.00', notes: 'Launch week' });
  ids.planTotal = await plan(w, w.member.userId, { starts_on: '2026-07-01', ends_on: '2026-07-31', total_hours: '40.00' }, w.managed);
  ids.ottoPlan = await plan(w, w.other.userId, { starts_on: '2026-06-15', ends_on: '2026-06-19', hours_per_day: '8.00', notes: 'Otto’s plan' });
  ids.foreignEntry = await insertEntryRow(ctx.db, foreign.companyId, { userId: foreign.member.userId, projectId: foreign.project, taskId: foreign.task, spentDate: '2026-06-08' });
  mia = await sessionFor(ctx.db, w.member);
  otto = await sessionFor(ctx.db, w.other);
  foreignMember = await sessionFor(ctx.db, foreign.member);
  ctx.clock.advance(60_000);
});
afterAll(() => ctx.close());

const FEED = '/web/api/profile/calendar-feed';
const web = (caller: Caller | null, method: 'GET' | 'POST' | 'DELETE') => request(ctx.app, caller, { method, url: FEED });
/** Makes (or rotates) the caller's feed; returns its path on this server. */
async function makeFeed(caller: Caller) {
  const res = await web(caller, 'POST');
  expect(res.statusCode, res.body).toBe(201);
  const url = res.json().url as string;
  expect(url).toMatch(/^https:\/\/sheaf\.example\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return url.replace('https://sheaf.example', '');
}
const fetchFeed = (path: string) => ctx.app.inject({ method: 'GET', url: path });

function events(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return { uid: e.uid, summary: e.summary, description: e.description, start: e.startDate, end: e.endDate };
  });
}

describe('the feed', () => {
  it('parses as iCalendar and holds the person’s entries and plan, with notes', async () => {
    const path = await makeFeed(mia);
    const res = await fetchFeed(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = events(res.body);
    const byUid = Object.fromEntries(list.map((e) => [e.uid, e]));

    const hours = byUid[`time-entry-${ids.hours}@sheaf`];
    expect(hours.summary).toBe('2.5 h · Main project – Development');
    expect(hours.start.isDate).toBe(true);
    expect(hours.start.toString()).toBe('2026-06-08');
    expect(hours.description).toContain('Mia wrote the release notes');
    // Hours to the hundredth, as a person reads them.
    expect(byUid[`time-entry-${ids.third}@sheaf`].summary).toBe('1.33 h · Main project – Development');

    // 09:00–10:30 in Berlin (summer time) is 07:00–08:30 UTC.
    const timed = byUid[`time-entry-${ids.timed}@sheaf`];
    expect(timed.start.isDate).toBe(false);
    expect(timed.start.toJSDate().toISOString()).toBe('2026-06-09T07:00:00.000Z');
    expect(timed.end.toJSDate().toISOString()).toBe('2026-06-09T08:30:00.000Z');
    expect(timed.summary).toBe('Main project – Development');

    expect(byUid[`time-entry-${ids.running}@sheaf`].summary).toBe('Managed project – Design (running)');

    const planned = byUid[`planning-assignment-${ids.plan}@sheaf`];
    expect(planned.summary).toBe('Planned: Main project (6 h/day)');
    expect(planned.start.toString()).toBe('2026-06-15');
    expect(planned.end.toString()).toBe('2026-06-20'); // DTEND of an all-day event is the day after
    expect(planned.description).toContain('Launch week');
    expect(byUid[`planning-assignment-${ids.planTotal}@sheaf`].summary).toBe('Planned: Managed project (40 h in total)');

    // Only the last year of entries.
    expect(byUid[`time-entry-${ids.old}@sheaf`]).toBeUndefined();
    expect(list).toHaveLength(6);
  });

  it('holds nothing of other people and no rates', async () => {
    const body = (await fetchFeed(await makeFeed(mia))).body;
    expect(body).not.toContain(ids.otto);
    expect(body).not.toContain('Otto');
    expect(body).not.toContain(ids.ottoPlan);
    expect(body).not.toContain('95.5');
    expect(body).not.toContain(ids.foreignEntry);
    const ottos = events((await fetchFeed(await makeFeed(otto))).body);
    expect(ottos.map((e) => e.uid).sort()).toEqual([`planning-assignment-${ids.ottoPlan}@sheaf`, `time-entry-${ids.otto}@sheaf`].sort());
  });

  it('another workspace: its member’s feed holds only their own entries there', async () => {
    const theirs = events((await fetchFeed(await makeFeed(foreignMember))).body);
    expect(theirs.map((e) => e.uid)).toEqual([`time-entry-${ids.foreignEntry}@sheaf`]);
    // Mia's feed is per workspace: her session there says nothing of the other workspace's feed.
    expect((await web(foreignMember, 'GET')).json().active).toBe(true);
  });

  it('unknown, malformed and made-up tokens are 404 in the error shape', async () => {
    for (const path of ['/calendar/nothing.ics', `/calendar/${'A'.repeat(43)}.ics`, `/calendar/${'A'.repeat(43)}`, '/calendar/%00.ics']) {
      const res = await fetchFeed(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });
});

describe('making, rotating and revoking', () => {
  it('says whether a feed works, never its URL again', async () => {
    const before = await web(otto, 'GET');
    expect(before.statusCode).toBe(200);
    const path = await makeFeed(otto);
    await fetchFeed(path);
    const status = (await web(otto, 'GET')).json();
    expect(status).toEqual({ active: true, created_at: expect.any(String), last_fetched_at: expect.any(String) });
    expect(JSON.stringify(status)).not.toContain(path.slice(10, 53));
    const stored = await ctx.db.selectFrom('calendar_feeds').select('token_hash').where('user_id', '=', w.other.userId).execute();
    for (const row of stored) expect(Buffer.from(row.token_hash).toString()).not.toContain(path.slice(10, 53));
  });

  it('rotating makes a new URL and ends the old one at once', async () => {
    const first = await makeFeed(mia);
    expect((await fetchFeed(first)).statusCode).toBe(200);
    const second = await makeFeed(mia);
    expect(second).not.toBe(first);
    expect((await fetchFeed(first)).statusCode).toBe(404);
    expect((await fetchFeed(second)).statusCode).toBe(200);
  });

  it('revoking ends it at once; revoking again is 404', async () => {
    const path = await makeFeed(mia);
    const revoked = await web(mia, 'DELETE');
    expect(revoked.statusCode).toBe(204);
    expect((await fetchFeed(path)).statusCode).toBe(404);
    expect((await web(mia, 'GET')).json()).toEqual({ active: false, created_at: null, last_fetched_at: null });
    expect((await web(mia, 'DELETE')).statusCode).toBe(404);
  });

  it('a person no longer active in the workspace has no working feed', async () => {
    const path = await makeFeed(otto);
    await ctx.db.updateTable('memberships').set({ is_active: false }).where('company_id', '=', w.companyId).where('user_id', '=', w.other.userId).execute();
    try {
      expect((await fetchFeed(path)).statusCode).toBe(404);
    } finally {
      await ctx.db.updateTable('memberships').set({ is_active: true }).where('company_id', '=', w.companyId).where('user_id', '=', w.other.userId).execute();
    }
  });

  it('the routes are the browser session’s own: no API key, no sign-in, no cross-site request', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await web(null, method)).statusCode, method).toBe(401);
      const key = await web(w.member, method);
      expect(key.statusCode, method).toBe(403);
      expect(key.json().error).toBe('session_required');
    }
    const noCsrf = await request(ctx.app, { ...mia, headers: { cookie: mia.headers.cookie } }, { method: 'POST', url: FEED });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('the request log never holds a feed’s token', async () => {
    const { redactFeedUrl } = await import('../src/modules/integrations/calendar-feed/index.ts');
    const token = 'A'.repeat(43);
    expect(redactFeedUrl(`/calendar/${token}.ics`)).toBe('/calendar/[token].ics');
    expect(redactFeedUrl('/api/v2/time_entries')).toBe('/api/v2/time_entries');
  });
});
