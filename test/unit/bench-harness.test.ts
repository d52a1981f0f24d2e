import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DATABASE_URL, countOption, median, postgresUrl } from '../../bench/harness.ts';
import { stats } from '../../bench/web-app.ts';
import { ROOT, RUN_TS } from '../cli-runner.ts';

/** Runs a fixture (test/fixtures/bench-way-out.ts in `mode` unless named); with `interrupt`, sends SIGINT once it is ready. */
function run(
  mode: string,
  interrupt = false,
  { fixture = 'test/fixtures/bench-way-out.ts', env = process.env }: { fixture?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...RUN_TS, fixture, mode], { cwd: ROOT, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (interrupt && out.includes('ready')) child.kill('SIGINT');
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => done({ code, out, err }));
  });
}

describe("a benchmark's way out", () => {
  it('Ctrl-C cleans up once, says what it stops, and exits 130', async () => {
    const { code, out, err } = await run('signal', true);
    expect(code).toBe(130);
    expect(out.match(/cleanup/g)).toHaveLength(1);
    expect(out).toContain('cleanup interrupted=true');
    expect(err).toContain('SIGINT: stopping the fixture');
  });

  it('a failure after the cleanup does not clean up again, and exits 1 with the error', async () => {
    const { code, out, err } = await run('fail');
    expect(code).toBe(1);
    expect(out.match(/cleanup/g)).toHaveLength(1);
    expect(err).toContain('benchmark failed: Error: the measurement broke');
  });

  // Playwright closes its browsers on Ctrl-C and then exits 130 itself, unless told not to;
  // that exit came before the web benches had dropped their schema or removed their directory.
  it.runIf(existsSync(process.env.CHROMIUM ?? '/usr/bin/chromium'))(
    'Ctrl-C with a web bench\'s browser open removes its database before exiting 130',
    async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'web-way-out-'));
      try {
        const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
        delete env.DATABASE_URL;
        const { code, out, err } = await run('', true, { fixture: 'test/fixtures/web-bench-way-out.ts', env });
        expect(out, err).toContain('ready');
        expect(code).toBe(130);
        expect(err).toContain('SIGINT: closing the browser and the app, and removing the database');
        expect(readdirSync(tmp).filter((name) => name.startsWith('sheaf-bench-'))).toEqual([]);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
    30_000,
  );

  it.runIf(process.env.DATABASE_URL)(
    "Ctrl-C in a schema of the run's own ends the run's connection that holds a lock there and drops the schema",
    async () => {
      const schema = `sheaf_bench_way_out_${process.pid}`;
      const { code, out, err } = await run(schema, true, { fixture: 'test/fixtures/schema-way-out.ts' });
      expect(err).toContain(`SIGINT: stopping and dropping schema ${schema}`);
      expect(err).not.toContain('could not drop');
      expect(out).toContain('stopped');
      expect(code).toBe(130);
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
        expect(rows).toEqual([]);
      } finally {
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
    30_000,
  );

  it('a normal end cleans up once, not interrupted', async () => {
    const { code, out } = await run('end');
    expect(code).toBe(0);
    expect(out.match(/cleanup/g)).toHaveLength(1);
    expect(out).toContain('cleanup interrupted=false');
    expect(out).toContain('interrupted=false');
  });
});

describe('summaries', () => {
  it('median: the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('stats: median, p95 by nearest rank, min and max, whatever the order', () => {
    const values = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(stats(values)).toEqual({ n: 20, median: 10.5, p95: 19, min: 1, max: 20 });
    expect(stats([5])).toEqual({ n: 1, median: 5, p95: 5, min: 5, max: 5 });
  });
});

describe('options', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("countOption: the flag, else BENCH_ and the name's words, else the fallback; a bad value names both", () => {
    vi.stubEnv('BENCH_TASKS_PER_PROJECT', '7');
    expect(countOption({ 'tasks-per-project': '3' }, 'tasks-per-project', 5)).toBe(3);
    expect(countOption({}, 'tasks-per-project', 5)).toBe(7);
    expect(countOption({}, 'rows', 40)).toBe(40);
    expect(countOption({ warmup: '0' }, 'warmup', 2, 0)).toBe(0);
    expect(() => countOption({ rows: '0' }, 'rows', 40)).toThrow('--rows (BENCH_ROWS) must be an integer of at least 1, not 0');
    expect(() => countOption({ rows: '2.5' }, 'rows', 40)).toThrow('must be an integer');
    expect(() => countOption({ rows: 'many' }, 'rows', 40)).toThrow('not many');
  });

  it('postgresUrl: DATABASE_URL, or the development PostgreSQL when it is unset or empty', () => {
    vi.stubEnv('DATABASE_URL', 'postgres://elsewhere/db');
    expect(postgresUrl()).toBe('postgres://elsewhere/db');
    vi.stubEnv('DATABASE_URL', '');
    expect(postgresUrl()).toBe(DEFAULT_DATABASE_URL);
    vi.stubEnv('DATABASE_URL', undefined);
    expect(postgresUrl()).toBe('postgres://root@127.0.0.1:5432/test');
  });
});
