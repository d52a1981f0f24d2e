/**
 * `npm run bench:web-home`: issue 21's "home dashboard cold load", in a real browser
 * (a benchmark, not a test).
 *
 * Server: as bench/web-week.ts (buildApp in-process on a fresh PGlite directory, or
 * PostgreSQL in a throwaway schema with DATABASE_URL; the production build of web/dist).
 *
 * Data: bench/web-week.ts's data set (bench/web-seed.ts) with 5 tasks per project:
 * 2,000 projects × 5 tasks, the member's year of time (2,000 entries); then, so that
 * every section of the owner's dashboard has work to do: approvals on (with work invoiced
 * before approval), the member's last two weeks submitted, a billable rate on every
 * project, an hours budget on every project (half of them small: the member's busiest
 * projects are over 80 % or 100 %), a quarter of the clients in EUR, 20 overdue open
 * invoices. The baseline is a second workspace with nothing but its owner, on the same
 * server, in the same run.
 *
 * Browser: Playwright's Chromium (/usr/bin/chromium), headless, 1280 px. Each sample is a
 * new navigation to / (a cold load: no data in memory; the browser's cache holds the
 * hashed assets, as for anyone who used the app before). An init script notes when the
 * dashboard ("This week", which shows with all the sections at once) is first in the DOM,
 * then after a double requestAnimationFrame, painted: t_shown, in ms since the
 * navigation started (performance.now()'s origin). Also noted: the /web/api/home
 * answer's time (requestStart → responseEnd) and the number of API calls of the load.
 *
 * Cases, interleaved sample by sample after the warm-up: owner (every section, 2,000
 * projects), member (week and recent work), empty (the baseline workspace's owner).
 * Printed and written to .bench/web-home.json: median and p95 of each, the ratios
 * owner/empty and member/empty of the medians, /proc/loadavg before and after, and any load
 * that made more than 3 API calls (with its calls). Exit code 1 only when a measurement is
 * invalid (the dashboard never showed).
 *
 * Options (flag or environment): --iterations BENCH_ITERATIONS (10), --warmup BENCH_WARMUP
 * (2), --projects BENCH_PROJECTS (2000), --tasks-per-project BENCH_TASKS_PER_PROJECT (5),
 * --out BENCH_OUT (.bench/web-home.json), --headed. DATABASE_URL, CHROMIUM (/usr/bin/chromium).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { BrowserContext } from '@playwright/test';
import { sql } from 'kysely';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { newId } from '../src/ids.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { countOption, loadAverages, secondsSince } from './harness.ts';
import { openWebBench, round, stats } from './web-app.ts';
import { addDays, mondayOf, seedWeekData } from './web-seed.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string' },
    warmup: { type: 'string' },
    projects: { type: 'string' },
    'tasks-per-project': { type: 'string' },
    out: { type: 'string' },
    headed: { type: 'boolean' },
  },
  strict: true,
});
const ITERATIONS = countOption(args, 'iterations', 10);
const WARMUP = countOption(args, 'warmup', 2, 0);
const PROJECTS = countOption(args, 'projects', 2000);
const TASKS_PER_PROJECT = countOption(args, 'tasks-per-project', 5);
const OUT = String(args.out ?? process.env.BENCH_OUT ?? '.bench/web-home.json');
const MAX_CALLS = 3;

const log = (line: string) => console.log(line);

const t0 = performance.now();
const loadBefore = loadAverages();
const bench = await openWebBench('home', { log });
const { database, db, cleanUp } = bench;

async function seed() {
  const thisMonday = mondayOf(Date.now());
  const data = await seedWeekData(db, {
    projects: PROJECTS,
    tasksPerProject: TASKS_PER_PROJECT,
    days: 250,
    perDay: 8,
    rows: 40,
    heavyRows: 30,
    thisMonday,
    heavy: addDays(thisMonday, -7 * 3),
    empty: addDays(thisMonday, -7 * 6),
  });
  const c = data.companyId;
  await sql`update companies set approvals_enabled = true, invoice_before_approval = true where id = ${c}`.execute(db);
  await sql`update memberships set expected_weekly_hours = 40 where company_id = ${c}`.execute(db);
  await sql`update time_entries set approval_status = 'submitted'
    where company_id = ${c} and user_id = ${data.memberId} and spent_date >= ${addDays(thisMonday, -14)}::date`.execute(db);
  await sql`insert into rates (company_id, id, kind, project_id, effective_from, hourly_rate)
    select company_id, gen_random_uuid(), 'billable', id, '2020-01-01', 100 from projects where company_id = ${c}`.execute(db);
  await sql`update projects set budget_by = 'project', budget = case when substring(code from 2)::int % 2 = 0 then 50 else 280 end where company_id = ${c}`.execute(db);
  await sql`update clients set currency = 'EUR' where company_id = ${c} and substring(name from 8)::int % 4 = 0`.execute(db);
  const client = await db.selectFrom('clients').select('id').where('company_id', '=', c).orderBy('name').executeTakeFirstOrThrow();
  for (let i = 0; i < 20; i++) {
    const id = newId();
    await db
      .insertInto('invoices')
      .values({ company_id: c, id, client_id: client.id, number: `B-${i}`, state: 'open', issue_date: addDays(thisMonday, -90), due_date: addDays(thisMonday, -60 + i), currency: i % 3 ? 'USD' : 'EUR' })
      .execute();
    await db.insertInto('invoice_line_items').values({ company_id: c, id: newId(), invoice_id: id, kind: 'Service', quantity: '1', unit_price: String(100 + i) }).execute();
  }
  await sql`analyze`.execute(db);
  const empty = await createWorkspace(db, { name: 'Bench empty' });
  const emptyOwner = await createMember(db, operatorPrincipal(empty.id), { email: `empty.${randomBytes(3).toString('hex')}@example.com`, first_name: 'Emma', last_name: 'Empty', role: 'owner' });
  const now = new Date();
  const token = async (userId: string, companyId: string) => (await createSession(db, { userId, companyId, now })).token;
  return {
    ...data,
    tokens: { owner: await token(data.ownerId, c), member: await token(data.memberId, c), empty: await token(emptyOwner.user_id, empty.id) },
  };
}

/** Notes when the dashboard is first in the DOM and when that frame was painted (a string: the page has no tsx helpers). */
const initScript = `(() => {
  const h = (window.__home = {});
  const check = () => {
    if (h.dom !== undefined || !document.querySelector('[data-home-dashboard] section')) return;
    h.dom = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => (h.shown = performance.now())));
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

/** Loads that made more than MAX_CALLS API calls (reported, with their calls). */
const extraCalls: string[] = [];

interface Sample {
  /** navigation start → dashboard painted (ms). */
  shown: number;
  dom: number;
  /** /web/api/home requestStart → responseEnd (ms). */
  api: number;
  calls: number;
}

async function measure(context: BrowserContext, base: string): Promise<Sample> {
  const page = await context.newPage();
  try {
    await page.goto(`${base}/`);
    try {
      await page.waitForFunction(() => (window as unknown as { __home: { shown?: number } }).__home.shown !== undefined, undefined, { timeout: 60_000 });
    } catch (err) {
      const text = await page.locator('body').innerText().catch(() => 'n/a');
      throw new Error(`the dashboard never showed at ${page.url()} (page text: ${text.slice(0, 300)})`, { cause: err });
    }
    const got = await page.evaluate(() => {
      const h = (window as unknown as { __home: { dom: number; shown: number } }).__home;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const calls = resources.filter((e) => /^\/(web\/)?api\//.test(new URL(e.name).pathname));
      const home = calls.find((e) => new URL(e.name).pathname === '/web/api/home');
      return { dom: h.dom, shown: h.shown, api: home ? home.responseEnd - home.requestStart : -1, calls: calls.length, paths: calls.map((e) => new URL(e.name).pathname) };
    });
    if (got.api < 0) throw new Error('no /web/api/home timing entry');
    if (got.calls > MAX_CALLS) extraCalls.push(got.paths.join(', '));
    return got;
  } finally {
    await page.close();
  }
}

try {
  const seeded = await seed();
  log(`seeded: ${PROJECTS} projects × ${TASKS_PER_PROJECT} tasks, ${seeded.entries} entries, budgets, rates, 20 overdue invoices; and an empty workspace, on ${database.kind} (${secondsSince(t0)})`);
  const base = await bench.serve();

  const browser = await bench.launchBrowser({ headed: Boolean(args.headed) });
  const contexts = new Map<string, BrowserContext>();
  for (const [name, token] of Object.entries(seeded.tokens)) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: base }]);
    await context.addInitScript({ content: initScript });
    contexts.set(name, context);
  }
  const cases = ['owner', 'member', 'empty'];
  const samples = new Map<string, Sample[]>(cases.map((c) => [c, []]));
  log(`measuring: ${WARMUP} warm-up rounds, ${ITERATIONS} rounds of ${cases.join(', ')} (load average ${loadAverages()})`);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const c of cases) {
      const sample = await measure(contexts.get(c)!, base);
      if (i >= WARMUP) samples.get(c)!.push(sample);
    }
  }
  const loadAfter = loadAverages();
  const results = Object.fromEntries(
    cases.map((c) => {
      const s = samples.get(c)!;
      return [c, { shown: stats(s.map((x) => x.shown)), dom: stats(s.map((x) => x.dom)), api: stats(s.map((x) => x.api)), calls: Math.max(...s.map((x) => x.calls)), samples: s.map((x) => round(x.shown)) }];
    }),
  );
  const ratio = (c: string) => results[c].shown.median / results.empty.shown.median;
  log(`\nhome dashboard cold load, navigation start → dashboard painted, ${ITERATIONS} iterations, Chromium headless 1280 px`);
  for (const c of cases) {
    const r = results[c];
    log(`  ${c.padEnd(7)} median ${r.shown.median.toFixed(1).padStart(7)} ms   p95 ${r.shown.p95.toFixed(1).padStart(7)} ms   (/web/api/home ${r.api.median.toFixed(1)} ms; ${r.calls} API calls)`);
  }
  log(`  ratio to the empty workspace (medians): owner ${ratio('owner').toFixed(2)}×, member ${ratio('member').toFixed(2)}×`);
  if (extraCalls.length) log(`  loads with more than ${MAX_CALLS} API calls: ${extraCalls.length} (e.g. ${extraCalls[0]})`);
  log(`  load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}; ${database.kind}; total ${secondsSince(t0)}`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    `${JSON.stringify(
      {
        measured: 'navigation start → the home dashboard in the DOM and painted (double rAF), ms, page clock',
        date: new Date().toISOString(),
        database: database.kind,
        loadavg: { before: loadBefore, after: loadAfter },
        data: { projects: PROJECTS, tasksPerProject: TASKS_PER_PROJECT, entries: seeded.entries },
        iterations: ITERATIONS,
        warmup: WARMUP,
        results,
        ratios: { owner: ratio('owner'), member: ratio('member') },
        loadsOverCallBudget: extraCalls,
      },
      null,
      2,
    )}\n`,
  );
  log(`  results: ${OUT}`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
