/**
 * The README's "Performance" table, kept current by the benchmarks.
 *
 * Each benchmark ends by calling `recordPerformance` with its rows: the figure, the baseline it
 * was measured against in the same run, their ratio, the CPU per request and the aim. The rows
 * are kept in bench/performance.json (committed, so one benchmark's run does not lose the others'
 * figures) and the table between the README's two markers is rendered from that file again.
 * A row is replaced only by a run of its own reproduce command (or with BENCH_RECORD=1), never by
 * a trial with other sizes. `npm run bench:table` renders it without running anything (after
 * editing the file by hand).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './harness.ts';

const STORE = resolve(ROOT, 'bench/performance.json');
const README = resolve(ROOT, 'README.md');
const START = '<!-- performance:start -->';
const END = '<!-- performance:end -->';

export interface PerformanceRow {
  /** Stable key, e.g. `users-me`; a new run replaces the row with the same key. */
  key: string;
  /** What is measured, e.g. `GET /api/v2/users/me`. */
  path: string;
  /** The figure, with its unit, e.g. `4,623 req/s`. */
  figure: string;
  /** What it is measured against in the same run, with its figure. */
  baseline: string;
  /** The ratio to the baseline, e.g. `0.70`. */
  ratio: string;
  /** CPU per request (server, and database where measured), e.g. `224 µs (baseline 148 µs)`. */
  cpu: string;
  /** The aim, in words, e.g. `ratio ≥ 0.8`. */
  aim: string;
  met: boolean;
  /** How to reproduce it. */
  command: string;
}

interface StoredRow extends PerformanceRow {
  date: string;
  loadAverage: number;
  /** The Node.js version the benchmark ran on (rows from before it was recorded have none). */
  node?: string;
}

/** Orders the table: the request path first, then lists, writes, reports, backup, web app. */
const ORDER = ['users-me', 'users-me-members', 'time-entries-list', 'projects-list', 'time-entries-create', 'reports-uninvoiced', 'reports-budget', 'backup', 'web-week-cold'];

function readStore(store = STORE): StoredRow[] {
  try {
    return JSON.parse(readFileSync(store, 'utf8')) as StoredRow[];
  } catch {
    return [];
  }
}

function rank(key: string): number {
  const i = ORDER.indexOf(key);
  return i === -1 ? ORDER.length : i;
}

/** The table's lines, in the stored order (recordPerformance keeps the file sorted). */
export function renderTable(rows: StoredRow[]): string {
  const escape = (s: string) => s.replaceAll('|', '\\|');
  const lines = [
    '| path | figure | baseline (same run) | ratio | CPU per request | aim | met | measured (load average, Node.js) | reproduce |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows
      .map((r) =>
        [
          r.path,
          r.figure,
          r.baseline,
          r.ratio,
          r.cpu,
          r.aim,
          r.met ? 'yes' : '**no**',
          `${r.date.slice(0, 10)} (${r.loadAverage.toFixed(1)}${r.node ? `, ${r.node}` : ''})`,
          `\`${r.command}\``,
        ]
          .map(escape)
          .join(' | '),
      )
      .map((line) => `| ${line} |`),
  ];
  return lines.join('\n');
}

function writeReadme(rows: StoredRow[], file = README): void {
  const readme = readFileSync(file, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  const table = renderTable(rows);
  writeFileSync(file, `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`);
}

/** BENCH_* variables that change nothing a row shows: where the results file goes, and this switch. */
const NEUTRAL_SETTINGS = new Set(['BENCH_OUT', 'BENCH_RECORD']);

/**
 * Why a run's row may not replace the stored one, or null when it may. A row is measured again by
 * running the command the table gives for it; a trial with other sizes or settings (other
 * arguments, or BENCH_* variables, which the command does not show) would put another
 * measurement's figures under that command. BENCH_RECORD=1 records it anyway, and is how a row
 * gets a new command. A key the table does not have yet is always recorded.
 */
function refusal(row: PerformanceRow, stored: StoredRow | undefined, env: NodeJS.ProcessEnv): string | null {
  if (!stored || env.BENCH_RECORD === '1') return null;
  if (row.command !== stored.command) return `this run (${row.command}) is not the row's command (${stored.command})`;
  const settings = Object.keys(env).filter((name) => name.startsWith('BENCH_') && !NEUTRAL_SETTINGS.has(name));
  if (settings.length) return `${settings.sort().join(', ')} set, which the row's command does not show`;
  return null;
}

/**
 * Replaces the stored rows with the same keys, stamps them with the date and the load, re-renders;
 * rows whose run was not the row's own command are left as they are (refusal), and said so.
 */
export function recordPerformance(
  rows: PerformanceRow[],
  { store = STORE, readme = README, env = process.env, log = console.log }: { store?: string; readme?: string; env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): void {
  const date = new Date().toISOString();
  const loadAverage = loadavg()[0];
  const before = readStore(store);
  const recorded: PerformanceRow[] = [];
  for (const row of rows) {
    const why = refusal(row, before.find((r) => r.key === row.key), env);
    if (why) log(`README.md "Performance" table: ${row.key} not recorded: ${why}; BENCH_RECORD=1 records it.`);
    else recorded.push(row);
  }
  if (!recorded.length) return;
  const keys = new Set(recorded.map((r) => r.key));
  const stored = [...before.filter((r) => !keys.has(r.key)), ...recorded.map((r) => ({ ...r, date, loadAverage, node: process.version }))];
  stored.sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
  writeFileSync(store, `${JSON.stringify(stored, null, 2)}\n`);
  writeReadme(stored, readme);
  log(`README.md "Performance" table: ${recorded.map((r) => r.key).join(', ')} updated`);
}

/** How the running benchmark was started, as `npm run <script> -- <its arguments>`. */
export function benchCommand(script: string): string {
  const args = process.argv.slice(2);
  return args.length ? `npm run ${script} -- ${args.join(' ')}` : `npm run ${script}`;
}

/** Formats numbers as the table writes them: thousands separated, fixed decimals. */
export function formatNumber(n: number, decimals = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeReadme(readStore());
  console.log('README.md "Performance" table rendered from bench/performance.json');
}
