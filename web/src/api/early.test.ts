import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arrivedAt, forgetEarly, noteAppLoaded, startEarly, takeEarly } from './early.ts';

const BASE = 'http://sheaf.test/time/week';

describe('answers asked for before the app runs (issue 24)', () => {
  // The suite shares modules between files (no isolation): another file's import of the app's
  // client has already marked the app loaded.
  beforeEach(forgetEarly);
  afterEach(forgetEarly);

  it('are taken once, by a GET of the same URL, with when they arrived', async () => {
    const sent: string[] = [];
    startEarly(['/web/api/session', '/web/api/timesheet?date=2026-11-02'], BASE, async (url) => (sent.push(String(url)), new Response(String(url))));
    expect(sent).toEqual(['http://sheaf.test/web/api/session', 'http://sheaf.test/web/api/timesheet?date=2026-11-02']);
    expect(takeEarly(new Request('http://sheaf.test/web/api/timesheet?date=2026-11-09'))).toBeUndefined();
    expect(takeEarly(new Request('http://sheaf.test/web/api/session', { method: 'POST' }))).toBeUndefined();
    const answer = await takeEarly(new Request('http://sheaf.test/web/api/timesheet?date=2026-11-02'));
    expect(await answer?.text()).toBe('http://sheaf.test/web/api/timesheet?date=2026-11-02');
    expect(arrivedAt(answer!)).toBeTypeOf('number');
    // A second request (a refetch) goes to the server.
    expect(takeEarly(new Request('http://sheaf.test/web/api/timesheet?date=2026-11-02'))).toBeUndefined();
    expect(await (await takeEarly(new Request('http://sheaf.test/web/api/session')))?.text()).toBe('http://sheaf.test/web/api/session');
  });

  it('are not asked for once the app is loaded: it asks for itself', () => {
    const sent: string[] = [];
    noteAppLoaded();
    startEarly(['/web/api/session'], BASE, async (url) => (sent.push(String(url)), new Response('')));
    expect(sent).toEqual([]);
    expect(takeEarly(new Request('http://sheaf.test/web/api/session'))).toBeUndefined();
  });

  it('hand a failure to whoever takes them, and to nobody otherwise', async () => {
    startEarly(['/web/api/timer'], BASE, () => Promise.reject(new TypeError('offline')));
    await expect(takeEarly(new Request('http://sheaf.test/web/api/timer'))).rejects.toThrow('offline');
    expect(arrivedAt(new Response(''))).toBeUndefined();
  });
});
