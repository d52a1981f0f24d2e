import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { paths } from '../../api/schema';
import { sheetParams } from './api.ts';
import { timePageCalls } from './early.ts';

const BASE = 'http://sheaf.test';

/** The URL the app's client (openapi-fetch, as api/client.ts makes it) requests for a week's query. */
async function clientUrl(date?: string, user?: string) {
  let url = '';
  const Request = class extends globalThis.Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, BASE) : input, init);
    }
  };
  const client = createClient<paths>({ baseUrl: '/', credentials: 'same-origin', Request, fetch: async (request: globalThis.Request) => ((url = request.url), new Response('{}')) });
  await client.GET('/web/api/timesheet', { params: sheetParams(date, user) });
  return url;
}

const early = (address: string) => {
  const { pathname, search } = new URL(address, BASE);
  return timePageCalls(pathname, search).map((path) => new URL(path, BASE).href);
};

describe('the week asked for before the app runs (issue 24)', () => {
  it('is the URL the route loader will ask for, so the client takes the early answer', async () => {
    expect(early('/time/week?start=2026-11-02')).toEqual([await clientUrl('2026-11-02')]);
    expect(early('/time/week')).toEqual([await clientUrl()]);
    expect(early('/time/week?start=')).toEqual([await clientUrl('')]);
    expect(early('/time/calendar?start=2026-11-02&user=0b4e7a3c-1d2f-4e5a-8b6c-7d8e9f0a1b2c')).toEqual([await clientUrl('2026-11-02', '0b4e7a3c-1d2f-4e5a-8b6c-7d8e9f0a1b2c')]);
    expect(early('/time/day?date=2026-11-04&start=2026-11-02')).toEqual([await clientUrl('2026-11-04')]);
  });
  it('only on the time pages', () => {
    expect(early('/')).toEqual([]);
    expect(early('/time')).toEqual([]);
    expect(early('/time/weekly?start=2026-11-02')).toEqual([]);
    expect(early('/sign-in?next=/time/week')).toEqual([]);
  });
});
