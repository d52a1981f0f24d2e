import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, type Request } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/**
 * What every page test checks (WEB-STYLE 5): the page shows its h1; axe finds no
 * serious or critical WCAG 2.1 A/AA violation at 1280 px and at 390 px; no CSP
 * violation and no console error; a page load makes at most 6 API calls, at most 2
 * one after another; screenshots in test-results/screens/<name>-1280.png and -390.png.
 */

export const SCREENS_DIR = 'test-results/screens';
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface Watch {
  problems: string[];
  calls: { request: Request; start: number; end?: number }[];
}

const watches = new WeakMap<Page, Watch>();

const isApiCall = (url: string) => {
  const path = new URL(url).pathname;
  return path.startsWith('/api/') || path.startsWith('/web/api/');
};

/**
 * Starts watching a page (once per page, before its first navigation): CSP violations
 * through an init script, console errors, uncaught exceptions, and API calls.
 */
export async function watch(page: Page): Promise<Watch> {
  const existing = watches.get(page);
  if (existing) return existing;
  const w: Watch = { problems: [], calls: [] };
  watches.set(page, w);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // The browser logs every 4xx of a fetch; an API's 4xx is an answer the page shows (wrong password), not a fault.
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text) && isApiCall(message.location().url)) return;
    w.problems.push(`console error: ${text}`);
  });
  page.on('pageerror', (error) => w.problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    if (isApiCall(request.url())) w.calls.push({ request, start: Date.now() });
  });
  const ended = (request: Request) => {
    const call = w.calls.find((c) => c.request === request);
    if (call) call.end = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return w;
}

/**
 * The longest run of calls each starting after the previous one finished (a request waterfall).
 * Times are whole milliseconds of Playwright's events, which a busy machine delivers in bursts:
 * calls that started in the same millisecond were sent together, never one after the other, even
 * when they seem to have finished in it too. And a call counts as after another only when it
 * started in a later millisecond than the other ended: a loader's four requests, sent in one tick,
 * were seen starting 924 and 925 ms in, while the first of them, answered by a local server within
 * the millisecond, ended at 925 (invoice-attachments.spec.ts, 2026-12-02); a request that waits for
 * an answer starts a millisecond or more after it.
 */
export function chainDepth(calls: { start: number; end?: number }[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) {
      const end = sorted[j].end;
      if (end !== undefined && end < call.start && sorted[j].start < call.start) before = Math.max(before, depth[j]);
    }
    depth[i] = before + 1;
  });
  return Math.max(0, ...depth);
}

/** Goes to `path` and checks the page (see checkPage); returns the API calls the load made. */
export async function visit(page: Page, path: string, name: string) {
  const w = await watch(page);
  await page.goto(path, { waitUntil: 'commit' });
  // The page's own calls start once its document is committed; any still running then are the previous page's.
  const committed = Date.now();
  const ours = () => w.calls.filter((c) => c.start >= committed);
  await page.waitForLoadState('load');
  await expect(page.locator('h1')).toBeVisible();
  await expect.poll(() => ours().filter((c) => c.end === undefined).length, { message: 'API calls still running' }).toBe(0);
  const calls = ours();
  expect(calls.length, `API calls of ${path}: ${calls.map((c) => c.request.url()).join(', ')}`).toBeLessThanOrEqual(6);
  const t0 = calls[0]?.start ?? 0;
  const timeline = calls.map((c) => `${new URL(c.request.url()).pathname} ${c.start - t0}–${(c.end ?? NaN) - t0} ms`).join(', ');
  expect(chainDepth(calls), `calls one after another on ${path}: ${timeline}`).toBeLessThanOrEqual(2);
  await checkPage(page, name);
  return calls.map((c) => `${c.request.method()} ${new URL(c.request.url()).pathname}`);
}

/** Checks the page as it is now (after an action too): axe and screenshots at both widths, then no problems seen. */
export async function checkPage(page: Page, name: string) {
  const w = await watch(page);
  await expect(page.locator('h1')).toBeVisible();
  mkdirSync(SCREENS_DIR, { recursive: true });
  for (const size of [WIDE, NARROW]) {
    await page.setViewportSize(size);
    await expectAccessible(page, `${name} at ${size.width} px`);
    await page.screenshot({ path: `${SCREENS_DIR}/${name}-${size.width}.png`, fullPage: true, animations: 'disabled', caret: 'hide' });
  }
  await page.setViewportSize(WIDE);
  expectNoProblems(w);
}

/** axe-core with the WCAG 2.1 A/AA rules; serious and critical violations fail (run it again with each dialog open). */
export async function expectAccessible(page: Page, where: string) {
  // React Aria's live announcer holds past announcements for 7 s; one made by a button the
  // navigation since removed (a pending Sign in) points at a gone label. Not page content.
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude('[data-live-announcer]').analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `accessibility of ${where}`,
  ).toEqual([]);
}

export function expectNoProblems(w: Watch) {
  expect(w.problems, 'CSP violations, console errors, uncaught exceptions').toEqual([]);
}

/** For a test's end: nothing went wrong on the page since it was first watched. */
export async function expectClean(page: Page) {
  expectNoProblems(await watch(page));
}

/** A table's scroll container (`region`) and the page, at this width: nothing to scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, region: Locator, width: number) {
  await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
  await expect(region).toBeVisible();
  const [scroll, client] = await region.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scroll, `${await region.getAttribute('aria-label')} scrolls sideways at ${width} px (${scroll} > ${client})`).toBeLessThanOrEqual(client);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
}
