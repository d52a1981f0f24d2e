import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterAll, describe, expect, it } from 'vitest';
import { closeChannel } from './channel.ts';
import { followOtherTabs, markStale, sameKey, STALE, stales, type Change } from './stale.ts';

// The keys as the areas' queryOptions build them (an area's module is not imported from api/).
const WEEK = ['time_entries', 'sheet', { date: 'today', user: 'me' }];
const RUNNING = ['time_entries', 'running'];
const HOME = ['home'];
const TIME_REPORT = ['reports', 'time', { from: '2026-11-01', to: '2026-11-30', group_by: 'projects' }];
const MY_WEEK = ['approvals', 'week', { date: 'today' }];
const QUEUE = ['approvals', 'queue'];
const EXPENSES = ['expenses', 'sheet', {}];
const EXPENSE_CHOICES = ['expenses', 'choices', null];
const INVOICES = ['invoices', 'list', {}];
const PROJECTS = ['projects', 'list', {}];
const CLIENTS = ['clients', 'list', { per_page: 2000 }];
const SESSION = ['session'];
const PROFILE = ['profile'];
const OWN_SESSIONS = ['profile', 'sessions'];

const stalesAll = (change: Change, keys: QueryKey[]) => keys.every((key) => stales(change, key));
const stalesNone = (change: Change, keys: QueryKey[]) => keys.every((key) => !stales(change, key));

describe('what a change makes stale', () => {
  it('a time entry made, changed or deleted: the week, the timer, home, reports and approvals', () => {
    expect(stalesAll('time_entry', [WEEK, RUNNING, HOME, TIME_REPORT, MY_WEEK, QUEUE])).toBe(true);
    expect(stalesNone('time_entry', [EXPENSES, INVOICES, PROJECTS, CLIENTS, SESSION])).toBe(true);
  });

  it('a timer is an entry: the same keys', () => {
    expect(STALE.timer).toEqual(STALE.time_entry);
  });

  it('an entry’s private notes only its views', () => {
    expect(stalesAll('private_notes', [WEEK, RUNNING])).toBe(true);
    expect(stalesNone('private_notes', [HOME, TIME_REPORT, MY_WEEK])).toBe(true);
  });

  it('an approval locks entries and expenses', () => {
    expect(stalesAll('approval', [MY_WEEK, QUEUE, WEEK, EXPENSES, HOME])).toBe(true);
  });

  it('an invoice made or deleted bills or releases work; its own change is the invoices’', () => {
    expect(stalesAll('billing', [INVOICES, WEEK, EXPENSES, TIME_REPORT, HOME])).toBe(true);
    expect(stalesAll('invoice', [INVOICES, HOME])).toBe(true);
    expect(stalesNone('invoice', [WEEK, EXPENSES, TIME_REPORT])).toBe(true);
  });

  it('a category stales the expense form’s choices, not the expense list', () => {
    expect(stalesAll('expense_category', [['expense-categories', 'list'], EXPENSE_CHOICES])).toBe(true);
    expect(stalesNone('expense_category', [EXPENSES])).toBe(true);
  });

  it('a saved report stales the saved reports, not the reports it runs; the zone and week start date them', () => {
    const SAVED = ['saved-reports', 'list'];
    expect(stales('saved_report', SAVED)).toBe(true);
    expect(stalesNone('saved_report', [TIME_REPORT, HOME])).toBe(true);
    expect(stalesAll('settings', [SAVED, TIME_REPORT])).toBe(true);
  });

  it('a plan stales the planner, the home page’s plan and the reports (planned against tracked); time off and patterns change its capacity', () => {
    const SCHEDULE = ['schedule', { from: '2026-11-02', weeks: 12 }];
    expect(stalesAll('planning', [SCHEDULE, HOME, ['reports', 'planned_vs_tracked', { from: '2026-11-01', to: '2026-11-30' }]])).toBe(true);
    expect(stalesNone('planning', [WEEK, PROJECTS, EXPENSES])).toBe(true);
    expect(stalesAll('time_off', [SCHEDULE])).toBe(true);
    expect(stalesAll('working_pattern', [SCHEDULE])).toBe(true);
    expect(stalesAll('member', [SCHEDULE])).toBe(true);
  });

  it('matches by prefix, part by part', () => {
    expect(stales('own_sessions', OWN_SESSIONS)).toBe(true);
    expect(stales('own_sessions', PROFILE)).toBe(false);
    expect(stales('client', ['clientsX'])).toBe(false);
  });
});

describe('markStale', () => {
  const seeded = () => {
    const queryClient = new QueryClient();
    for (const key of [WEEK, HOME, TIME_REPORT, MY_WEEK, EXPENSES, SESSION, PROFILE, OWN_SESSIONS]) queryClient.setQueryData(key, { seeded: true });
    return queryClient;
  };
  const invalidated = (queryClient: QueryClient, key: QueryKey) => queryClient.getQueryState(key)?.isInvalidated;

  it('marks the row’s keys stale here, and only those', async () => {
    const queryClient = seeded();
    await markStale(queryClient, 'time_entry');
    for (const key of [WEEK, HOME, TIME_REPORT, MY_WEEK]) expect(invalidated(queryClient, key)).toBe(true);
    for (const key of [EXPENSES, SESSION, PROFILE]) expect(invalidated(queryClient, key)).toBe(false);
  });

  it('keeps what the mutation answered here', async () => {
    const queryClient = seeded();
    await markStale(queryClient, 'profile', { except: (key) => sameKey(PROFILE)(key) || sameKey(SESSION)(key) });
    expect(invalidated(queryClient, PROFILE)).toBe(false);
    expect(invalidated(queryClient, SESSION)).toBe(false);
    expect(invalidated(queryClient, OWN_SESSIONS)).toBe(true);
  });

  it('tells other tabs, and marks stale what theirs change', async () => {
    const otherTab = new BroadcastChannel('sheaf');
    const heard = new Promise((resolve) => otherTab.addEventListener('message', (event) => resolve(event.data), { once: true }));
    await markStale(new QueryClient(), 'expense');
    expect(await heard).toEqual({ stale: 'expense' });

    const queryClient = seeded();
    const stop = followOtherTabs(queryClient);
    const followed = new Promise<void>((resolve) => queryClient.getQueryCache().subscribe((event) => event.type === 'updated' && resolve()));
    otherTab.postMessage({ stale: 'approval' });
    await followed;
    expect(invalidated(queryClient, MY_WEEK)).toBe(true);
    expect(invalidated(queryClient, WEEK)).toBe(true);
    expect(invalidated(queryClient, PROFILE)).toBe(false);
    stop();
    otherTab.close();
  });

  afterAll(closeChannel);
});
