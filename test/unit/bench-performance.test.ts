import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordPerformance, type PerformanceRow } from '../../bench/performance.ts';

/** bench/performance.ts: the README's Performance table, kept by the benchmarks' own runs. */
describe("the README's Performance table", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const row = (over: Partial<PerformanceRow> = {}): PerformanceRow => ({
    key: 'users-me',
    path: 'GET /api/v2/users/me',
    figure: '100 req/s',
    baseline: 'bare route: 120 req/s',
    ratio: '0.83',
    cpu: '—',
    aim: 'ratio ≥ 0.8',
    met: true,
    command: 'npm run bench',
    ...over,
  });

  /** A store holding `rows`, a README with the markers, and a recorder writing to both. */
  function table(rows: PerformanceRow[]) {
    const dir = mkdtempSync(join(tmpdir(), 'performance-'));
    dirs.push(dir);
    const store = join(dir, 'performance.json');
    const readme = join(dir, 'README.md');
    writeFileSync(store, JSON.stringify(rows.map((r) => ({ ...r, date: '2026-12-01T00:00:00.000Z', loadAverage: 1 }))));
    writeFileSync(readme, 'intro\n<!-- performance:start -->\n<!-- performance:end -->\nrest\n');
    const lines: string[] = [];
    return {
      lines,
      record: (next: PerformanceRow[], env: NodeJS.ProcessEnv = {}) => recordPerformance(next, { store, readme, env, log: (l) => lines.push(l) }),
      stored: () => JSON.parse(readFileSync(store, 'utf8')) as (PerformanceRow & { date: string })[],
      readme: () => readFileSync(readme, 'utf8'),
    };
  }

  it("replaces a row when the run was the row's own command, and renders the table again", () => {
    const t = table([row(), row({ key: 'backup', path: 'backup pull', command: 'npm run bench:backup' })]);
    t.record([row({ figure: '200 req/s' })]);
    const stored = t.stored();
    expect(stored.map((r) => [r.key, r.figure])).toEqual([['users-me', '200 req/s'], ['backup', '100 req/s']]);
    expect(stored[0]!.date).not.toBe('2026-12-01T00:00:00.000Z');
    expect(t.readme()).toContain('| GET /api/v2/users/me | 200 req/s |');
    expect(t.readme()).toMatch(/^intro\n<!-- performance:start -->\n\| path \|[^]*\n<!-- performance:end -->\nrest\n$/);
    expect(t.lines).toEqual(['README.md "Performance" table: users-me updated']);
  });

  it('leaves a row alone when a trial ran with other arguments or BENCH_ settings, and says so', () => {
    const t = table([row()]);
    const before = readFileSync(join(dirs[0]!, 'performance.json'), 'utf8');
    t.record([row({ figure: '5 req/s', command: 'npm run bench -- --duration 1' })]);
    t.record([row({ figure: '6 req/s' })], { BENCH_ROUNDS: '1', BENCH_OUT: '/tmp/x.json' });
    expect(readFileSync(join(dirs[0]!, 'performance.json'), 'utf8')).toBe(before);
    expect(t.readme()).not.toContain('req/s');
    expect(t.lines).toEqual([
      'README.md "Performance" table: users-me not recorded: this run (npm run bench -- --duration 1) is not the row\'s command (npm run bench); BENCH_RECORD=1 records it.',
      'README.md "Performance" table: users-me not recorded: BENCH_ROUNDS set, which the row\'s command does not show; BENCH_RECORD=1 records it.',
    ]);
  });

  it('records a trial with BENCH_RECORD=1 (a new command for the row), and a key it does not have yet', () => {
    const t = table([row()]);
    t.record([row({ figure: '7 req/s', command: 'npm run bench -- --rounds 9' }), row({ key: 'new-path', command: 'npm run bench:new -- --small' })], { BENCH_RECORD: '1' });
    expect(t.stored().map((r) => [r.key, r.figure, r.command])).toEqual([
      ['users-me', '7 req/s', 'npm run bench -- --rounds 9'],
      ['new-path', '100 req/s', 'npm run bench:new -- --small'],
    ]);
    const u = table([row()]);
    u.record([row({ figure: '8 req/s', command: 'npm run bench -- --other' }), row({ key: 'new-path', command: 'npm run bench:new -- --small' })]);
    expect(u.stored().map((r) => [r.key, r.figure])).toEqual([['users-me', '100 req/s'], ['new-path', '100 req/s']]);
  });
});
