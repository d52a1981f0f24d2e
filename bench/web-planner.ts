/**
 * `npm run bench:web-planner`: issue 26 item 2's planner with 200 people × 26 weeks, drawn
 * within 300 ms after the schedule arrived, measured in a real browser (a benchmark, not a test).
 *
 * Server: as bench/web-week.ts (buildApp in-process on a fresh PGlite directory, or
 * PostgreSQL in a throwaway schema with DATABASE_URL, dropped at the end; the production
 * build of web/dist, rebuilt first when missing or older than its sources).
 *
 * Data (set-based inserts, a few seconds): workspace "Bench planner" with its owner and
 * PEOPLE active members (40 h a week each), 40 clients and 120 projects; each member has
 * ASSIGNMENTS assignments (hours per day, every third a total) of 1 to 7 weeks spread over
 * the 26 weeks from this week, some overlapping (two lanes); 5 placeholders with 2 each.
 * The baseline is a second workspace with only its owner (1 person, nothing planned), on
 * the same server, in the same run.
 *
 * Browser: Playwright's Chromium (/usr/bin/chromium), headless, 1280 px, signed in with a
 * session cookie. Each sample is a new page loading /planning?weeks=26 (a cold load of the
 * data; the browser's cache holds the hashed assets). An init script notes when the schedule
 * table ([data-planner-grid]) is first in the DOM, then after a double requestAnimationFrame
 * (the frame holding it painted) t_shown. t_answer is the responseEnd of the
 * /web/api/schedule resource timing entry, in the same page clock. The figure is t_shown −
 * t_answer: what the browser does after the server's last byte (parse the JSON, run React,
 * lay out, paint). The page draws its first 30 people at once (more than a screen holds) and
 * the rest in a transition right after (ScheduleGrid.tsx); `all` is the same measure until the
 * table says every row is drawn ([data-complete]), painted. Also noted: navigation → shown,
 * the answer's time (requestStart → responseEnd) and size, and the bars and cells drawn.
 *
 * Cases, interleaved sample by sample after the warm-up: `planner` (200 people) and `one`
 * (the baseline). Printed and written to .bench/web-planner.json: median and p95 of each,
 * the ratio planner/one of the medians, /proc/loadavg before and after; the README's
 * performance table gets the row `web-planner-render` (aim: median ≤ 300 ms). Exit code 1
 * only when a measurement is invalid (the schedule never showed, no timing entry).
 *
 * Options (flag or environment): --iterations BENCH_ITERATIONS (10), --warmup BENCH_WARMUP
 * (2), --people BENCH_PEOPLE (200), --assignments BENCH_ASSIGNMENTS (4 per person), --weeks
 * BENCH_WEEKS (26), --out BENCH_OUT (.bench/web-planner.json), --headed. DATABASE_URL,
 * CHROMIUM (/usr/bin/chromium).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { BrowserContext } from '@playwright/test';
import { sql, type Insertable, type Kysely } from 'kysely';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { countOption, loadAverages, secondsSince } from './harness.ts';
import { benchCommand, recordPerformance } from './performance.ts';
import { openWebBench, round, stats } from './web-app.ts';
import { addDays, mondayOf } from './web-seed.ts';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string' },
    warmup: { type: 'string' },
    people: { type: 'string' },
    assignments: { type: 'string' },
    weeks: { type: 'string' },
    out: { type: 'string' },
    headed: { type: 'boolean' },
  },
  strict: true,
});
const ITERATIONS = countOption(args, 'iterations', 10);
const WARMUP = countOption(args, 'warmup', 2, 0);
const PEOPLE = countOption(args, 'people', 200);
const ASSIGNMENTS = countOption(args, 'assignments', 4, 0);
const WEEKS = countOption(args, 'weeks', 26);
const OUT = String(args.out ?? process.env.BENCH_OUT ?? '.bench/web-planner.json');
const AIM_MS = 300;
const CLIENTS = 40;
const PROJECTS = 120;
const PLACEHOLDERS = 5;

const log = (line: string) => console.log(line);

const t0 = performance.now();
const loadBefore = loadAverages();
const bench = await openWebBench('planner', { log });
const { database, db, cleanUp } = bench;

async function insertChunks<T extends keyof DB>(kysely: Kysely<DB>, table: T, rows: Insertable<DB[T]>[]) {
  for (let i = 0; i < rows.length; i += 500) await kysely.insertInto(table).values(rows.slice(i, i + 500) as never).execute();
}

async function seed() {
  await migrate(db);
  const tag = randomBytes(3).toString('hex');
  const thisMonday = mondayOf(Date.now());
  const company = await createWorkspace(db, { name: 'Bench planner' });
  const c = company.id;
  const owner = await createMember(db, operatorPrincipal(c), { email: `owner.${tag}@example.com`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
  const people: string[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const m = await createMember(db, operatorPrincipal(c), { email: `p${i}.${tag}@example.com`, first_name: `Person`, last_name: String(i).padStart(3, '0'), role: 'member' });
    people.push(m.user_id);
  }
  await sql`update memberships set expected_weekly_hours = 40 where company_id = ${c}`.execute(db);
  const clients = Array.from({ length: CLIENTS }, (_, i) => ({ company_id: c, id: newId(), name: `Client ${String(i).padStart(2, '0')}` }));
  await insertChunks(db, 'clients', clients);
  const projects = Array.from({ length: PROJECTS }, (_, i) => ({ company_id: c, id: newId(), client_id: clients[i % CLIENTS].id, name: `Project ${String(i).padStart(3, '0')}`, code: `P${i}` }));
  await insertChunks(db, 'projects', projects);
  const placeholders = Array.from({ length: PLACEHOLDERS }, (_, i) => ({ company_id: c, id: newId(), name: `Role ${i}`, weekly_hours: '40' }));
  await insertChunks(db, 'planning_placeholders', placeholders);

  // Each person's assignments: 1 to 7 weeks long, starting every ~6 weeks over the 26 (a few overlapping).
  const rows: Insertable<DB['planning_assignments']>[] = [];
  const plan = (who: { user_id: string } | { placeholder_id: string }, i: number, k: number) => {
    const startWeek = (i * 3 + k * 6) % Math.max(1, WEEKS - 1);
    const length = 1 + ((i + k * 5) % 7);
    const starts_on = addDays(thisMonday, startWeek * 7 + (k % 2));
    const ends_on = addDays(starts_on, length * 7 - 3);
    const total = k % 3 === 2;
    rows.push({
      company_id: c,
      id: newId(),
      project_id: projects[(i * 7 + k * 13) % PROJECTS].id,
      user_id: null,
      placeholder_id: null,
      ...who,
      starts_on,
      ends_on,
      hours_per_day: total ? null : String(2 + ((i + k) % 5)),
      total_hours: total ? String(10 * length) : null,
    });
  };
  people.forEach((user_id, i) => {
    for (let k = 0; k < ASSIGNMENTS; k++) plan({ user_id }, i, k);
  });
  placeholders.forEach((p, i) => {
    for (let k = 0; k < 2; k++) plan({ placeholder_id: p.id }, i, k);
  });
  await insertChunks(db, 'planning_assignments', rows);
  await sql`analyze`.execute(db);

  const one = await createWorkspace(db, { name: 'Bench one person' });
  const oneOwner = await createMember(db, operatorPrincipal(one.id), { email: `one.${tag}@example.com`, first_name: 'Oscar', last_name: 'Only', role: 'owner' });
  await sql`update memberships set expected_weekly_hours = 40 where company_id = ${one.id}`.execute(db);
  const now = new Date();
  const token = async (userId: string, companyId: string) => (await createSession(db, { userId, companyId, now })).token;
  return { assignments: rows.length, tokens: { planner: await token(owner.user_id, c), one: await token(oneOwner.user_id, one.id) } };
}

/** Notes when the schedule is first in the DOM and when that frame was painted (a string: the page has no tsx helpers). */
const initScript = `(() => {
  const h = (window.__planner = {});
  const check = () => {
    if (h.dom === undefined && document.querySelector('[data-planner-grid]')) {
      h.dom = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => (h.shown = performance.now())));
    }
    if (h.all === undefined && document.querySelector('[data-planner-grid][data-complete]')) {
      h.all = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => (h.complete = performance.now())));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-complete'] });
})();`;

interface Sample {
  /** /web/api/schedule responseEnd → schedule painted (ms): its first rows, as many as any screen shows. */
  render: number;
  /** /web/api/schedule responseEnd → every row in the DOM and painted (ms): the rest follow in a transition. */
  all: number;
  /** navigation start → schedule painted (ms). */
  shown: number;
  /** /web/api/schedule requestStart → responseEnd (ms). */
  api: number;
  bytes: number;
  bars: number;
  cells: number;
}

async function measure(context: BrowserContext, base: string): Promise<Sample> {
  const page = await context.newPage();
  try {
    await page.goto(`${base}/planning?weeks=${WEEKS}`);
    try {
      await page.waitForFunction(() => (window as unknown as { __planner: { complete?: number } }).__planner.complete !== undefined, undefined, { timeout: 60_000 });
    } catch (err) {
      const text = await page.locator('body').innerText().catch(() => 'n/a');
      throw new Error(`the schedule never showed at ${page.url()} (page text: ${text.slice(0, 300)})`, { cause: err });
    }
    const got = await page.evaluate(() => {
      const h = (window as unknown as { __planner: { dom: number; shown: number; complete: number } }).__planner;
      const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => new URL(e.name).pathname === '/web/api/schedule');
      const grid = document.querySelector('[data-planner-grid]')!;
      return {
        shown: h.shown,
        complete: h.complete,
        answer: entry ? entry.responseEnd : -1,
        api: entry ? entry.responseEnd - entry.requestStart : -1,
        bytes: entry ? entry.encodedBodySize : 0,
        bars: grid.querySelectorAll('[data-bar]').length,
        cells: grid.querySelectorAll('[role="cell"]').length,
      };
    });
    if (got.answer < 0) throw new Error('no /web/api/schedule timing entry');
    return { render: got.shown - got.answer, all: got.complete - got.answer, shown: got.shown, api: got.api, bytes: got.bytes, bars: got.bars, cells: got.cells };
  } finally {
    await page.close();
  }
}

try {
  const seeded = await seed();
  log(`seeded: ${PEOPLE} people with ${seeded.assignments} assignments over ${WEEKS} weeks, ${PLACEHOLDERS} placeholders; and a one-person workspace, on ${database.kind} (${secondsSince(t0)})`);
  const base = await bench.serve();

  const browser = await bench.launchBrowser({ headed: Boolean(args.headed), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const cases = ['planner', 'one'] as const;
  const contexts = new Map<string, BrowserContext>();
  for (const name of cases) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: seeded.tokens[name], url: base }]);
    await context.addInitScript({ content: initScript });
    contexts.set(name, context);
  }
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
      return [
        c,
        {
          render: stats(s.map((x) => x.render)),
          all: stats(s.map((x) => x.all)),
          shown: stats(s.map((x) => x.shown)),
          api: stats(s.map((x) => x.api)),
          bytes: s[0].bytes,
          bars: s[0].bars,
          cells: s[0].cells,
          samples: s.map((x) => round(x.render)),
        },
      ];
    }),
  );
  const big = results.planner;
  const one = results.one;
  const ratio = big.render.median / one.render.median;
  log(`\nplanner, /planning?weeks=${WEEKS}: the schedule's answer arrived (responseEnd) → the grid painted (double rAF), ${ITERATIONS} iterations, Chromium headless 1280 px`);
  for (const c of cases) {
    const r = results[c];
    log(
      `  ${c.padEnd(7)} median ${r.render.median.toFixed(1).padStart(7)} ms   p95 ${r.render.p95.toFixed(1).padStart(7)} ms   (every row painted: median ${r.all.median.toFixed(1)} ms, p95 ${r.all.p95.toFixed(1)} ms; navigation → painted ${r.shown.median.toFixed(0)} ms; /web/api/schedule ${r.api.median.toFixed(1)} ms, ${(r.bytes / 1024).toFixed(0)} KB; ${r.bars} bars, ${r.cells} cells)`,
    );
  }
  const met = big.render.median <= AIM_MS;
  log(`  ratio ${PEOPLE} people / 1 person (medians) ${ratio.toFixed(2)}×; aim ≤ ${AIM_MS} ms after the data arrives (median): ${met ? 'met' : 'MISSED'}`);
  log(`  load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}; ${database.kind}; total ${secondsSince(t0)}`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    `${JSON.stringify(
      {
        measured: '/web/api/schedule responseEnd → the schedule table in the DOM and painted (double rAF), ms, page clock; `all`: until every row is (the rows past the first 30 follow in a transition)',
        date: new Date().toISOString(),
        database: database.kind,
        loadavg: { before: loadBefore, after: loadAfter },
        data: { people: PEOPLE, assignments: seeded.assignments, weeks: WEEKS, placeholders: PLACEHOLDERS },
        iterations: ITERATIONS,
        warmup: WARMUP,
        results,
        ratio,
      },
      null,
      2,
    )}\n`,
  );
  log(`  results: ${OUT}`);
  recordPerformance([
    {
      key: 'web-planner-render',
      path: `web app: planner, ${PEOPLE} people × ${WEEKS} weeks (${seeded.assignments} bars), the schedule's answer → grid painted (${database.kind})`,
      figure: `${big.render.median.toFixed(0)} ms median (p95 ${big.render.p95.toFixed(0)}); every row ${big.all.median.toFixed(0)} ms`,
      baseline: `the same page for 1 person: ${one.render.median.toFixed(0)} ms`,
      ratio: `${ratio.toFixed(2)}×`,
      cpu: 'n/a (browser)',
      aim: '≤ 300 ms after the data arrives',
      met,
      command: benchCommand('bench:web-planner'),
    },
  ]);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
