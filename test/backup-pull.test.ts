import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { main } from '../src/cli/main.ts';
import { describeFetchError, isLoopback, mayHoldLinks, pullBackup, readPage, recordLines, recordSpans, verifyBackup } from '../src/cli/backup-client.ts';
import { pullSentence } from '../src/cli/backup-commands.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, type Caller, type TestContext } from './helpers.ts';
import { seedBackupWorkspace, type Seeded } from './fixtures/backup.ts';

/**
 * `sheaf backup pull` and `sheaf backup verify` against a real listening server
 * (127.0.0.1, port 0): a pull in one go, an interrupted pull resumed, 429s
 * waited out, unknown fields kept, and verify catching tampering.
 */

let ctx: TestContext;
let owner: Caller;
let member: Caller;
let seeded: Seeded;
let baseUrl: string;
let limited: FastifyInstance;
let limitedUrl: string;
const dirs: string[] = [];

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'sheaf-backup-'));
  dirs.push(dir);
  return dir;
}

async function sheaf(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { env: { LOG_LEVEL: 'silent', ...env }, out: (t) => out.push(t), err: (t) => err.push(t) });
  const stdout = out.join('\n');
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr: err.join('\n'), json };
}

const envOf = (caller: Caller, url = baseUrl) => ({ SHEAF_API_KEY: caller.key, SHEAF_WORKSPACE_ID: caller.companyId, SHEAF_URL: url });

/** Every file under dir (relative path → bytes), without the pull's state file. */
async function tree(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.set(relative(dir, full), await readFile(full));
  }
  files.delete('.sheaf-backup-state.json');
  return files;
}

/** Two pulls of the same data wrote the same files, byte for byte (but for the manifest's time and the sums over it). */
async function expectSameBackup(dir: string, expected: string) {
  const [a, b] = [await tree(expected), await tree(dir)];
  for (const files of [a, b]) {
    files.delete('manifest.json'); // generated_at differs between two pulls
    files.delete('SHA256SUMS');
  }
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [path, bytes] of a) expect(b.get(path)!.equals(bytes), path).toBe(true);
}

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Pull Co'));
  member = await addMember(ctx.db, owner.companyId, { role: 'member' });
  const manager = await addMember(ctx.db, owner.companyId, { role: 'manager' });
  seeded = await seedBackupWorkspace(ctx.db, owner.companyId, { ownerId: owner.userId, managerId: manager.userId, memberId: member.userId }, { timeEntries: 57, clients: 4 });
  baseUrl = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  // A second server on the same database with a tight rate limit: 8 requests per second per key.
  limited = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '8', RATE_LIMIT_WINDOW_MS: '1000' }, { dataDir: null }), db: ctx.db });
  limitedUrl = await limited.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await limited.close();
  await ctx.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('sheaf backup pull', () => {
  let oneGo: string;

  it('pulls every resource and file in one go, with progress on stderr and a JSON summary', async () => {
    oneGo = await tempDir();
    const res = await sheaf(['backup', 'pull', '--out', oneGo, '--per-page', '10', '--json'], envOf(owner));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('sheaf backup: time_entries: 57/57');
    expect(res.json).toMatchObject({ resumed: false, backup_schema_version: 1, count_differences: [], missing_files: [] });
    const manifest = JSON.parse(await readFile(join(oneGo, 'manifest.json'), 'utf8'));
    for (const r of manifest.resources) {
      const text = await readFile(join(oneGo, 'resources', `${r.name}.jsonl`), 'utf8');
      const lines = text.split('\n').filter(Boolean);
      expect(lines.length, r.name).toBe(r.total_entries);
      expect(res.json.resources[r.name].records).toBe(r.total_entries);
    }
    expect(res.json.resources.time_entries.pages).toBe(6);
    // Files: two expense receipts, one of them also the invoice's copy.
    expect(res.json.files).toBe(4);
    const files = await tree(oneGo);
    for (const [id, bytes] of seeded.fileBytes) {
      const matching = [...files.entries()].filter(([, b]) => b.equals(bytes));
      expect(matching.length, id).toBeGreaterThan(0);
    }
    expect(files.get(join('files', 'backup', 'files', 'invoice_expense_receipts', seeded.invoiceReceiptFileIds[0]))!.equals(seeded.fileBytes.get(seeded.invoiceReceiptFileIds[0])!)).toBe(true);
    expect(files.get(join('files', 'expenses', seeded.expenseIds[0], 'receipt'))).toBeDefined();
    const sums = (await readFile(join(oneGo, 'SHA256SUMS'), 'utf8')).trim().split('\n');
    expect(sums.length).toBe(1 + manifest.resources.length + 1 + 4);
    expect(sums.every((l) => /^[0-9a-f]{64} {2}\S/.test(l))).toBe(true);

    const verified = await sheaf(['backup', 'verify', oneGo], {});
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/^OK: 25 resources/);
  });

  it('resumes an interrupted pull and ends with exactly what a pull in one go writes', async () => {
    const dir = await tempDir();
    let calls = 0;
    const failing: typeof fetch = (input, init) => {
      if (++calls === 12) return Promise.reject(new TypeError('connection reset (simulated)'));
      return fetch(input, init);
    };
    await expect(
      pullBackup({ baseUrl, key: owner.key, workspaceId: owner.companyId, outDir: dir, perPage: 10, fetch: failing, retries: 0 }),
    ).rejects.toThrow(/connection reset/);
    const unfinished = await verifyBackup(dir);
    expect(unfinished.ok).toBe(false);
    expect(unfinished.problems[0]).toContain('did not finish');
    // A crash in the middle of writing a page leaves a partial line: the resume drops it.
    const state = JSON.parse(await readFile(join(dir, '.sheaf-backup-state.json'), 'utf8'));
    const partial = Object.entries(state.resources as Record<string, { done: boolean }>).find(([, r]) => !r.done)![0];
    await appendFile(join(dir, 'resources', `${partial}.jsonl`), '{"id":"half a rec');

    const res = await sheaf(['backup', 'pull', '--out', dir, '--per-page', '10', '--json'], envOf(owner));
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.resumed).toBe(true);
    expect(res.stderr).toContain('resuming');
    await expectSameBackup(dir, oneGo);
    expect((await verifyBackup(dir)).ok).toBe(true);

    // A finished directory pulled again starts afresh.
    const again = await sheaf(['backup', 'pull', '--out', dir, '--per-page', '10', '--json'], envOf(owner));
    expect(again.code).toBe(0);
    expect(again.json.resumed).toBe(false);
  });

  it('waits out 429 responses for Retry-After and completes', async () => {
    const dir = await tempDir();
    const res = await sheaf(['backup', 'pull', '--out', dir, '--per-page', '50', '--json'], envOf(owner, limitedUrl));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/rate limited: waiting \d+ s \(Retry-After\)/);
    expect((await verifyBackup(dir)).ok).toBe(true);
  }, 60_000);

  it('keeps fields and resources it does not know (schema version 1 may grow), and refuses another schema version', async () => {
    const dir = await tempDir();
    const rewriting =
      (change: (path: string, body: any) => void): typeof fetch =>
      async (input, init) => {
        if (new URL(String(input)).pathname === '/api/v2/backup/future_things') {
          const page = { backup_schema_version: 1, resource: 'future_things', records: [{ id: 'f1', shape: 'new' }], per_page: 500, total_pages: 1, total_entries: 1, page: 1, links: { first: '', next: null, previous: null, last: '' } };
          return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
        }
        const res = await fetch(input, init);
        if (!res.headers.get('content-type')?.startsWith('application/json')) return res;
        const body = await res.json();
        change(new URL(String(input)).pathname, body);
        return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
      };
    await pullBackup({
      baseUrl,
      key: owner.key,
      workspaceId: owner.companyId,
      outDir: dir,
      fetch: rewriting((path, body) => {
        if (path === '/api/v2/backup') {
          body.future_top_level = { x: 1 };
          body.resources.push({ name: 'future_things', description: 'added later', total_entries: 1, endpoint: '/api/v2/backup/future_things' });
        }
        if (Array.isArray(body.records)) for (const r of body.records) r.future_field = { nested: ['kept'] };
      }),
    });
    expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).future_top_level).toEqual({ x: 1 });
    const first = JSON.parse((await readFile(join(dir, 'resources', 'clients.jsonl'), 'utf8')).split('\n')[0]);
    expect(first.future_field).toEqual({ nested: ['kept'] });
    expect(first.contacts.length).toBe(2);
    expect(JSON.parse(await readFile(join(dir, 'resources', 'future_things.jsonl'), 'utf8'))).toEqual({ id: 'f1', shape: 'new' });
    expect((await verifyBackup(dir)).ok).toBe(true);

    const other = await tempDir();
    await expect(
      pullBackup({
        baseUrl,
        key: owner.key,
        workspaceId: owner.companyId,
        outDir: other,
        fetch: rewriting((path, body) => {
          if (path === '/api/v2/backup') body.backup_schema_version = 2;
        }),
      }),
    ).rejects.toThrow(/backup_schema_version is 2/);
  });

  it('writes the same lines when the server pretty-prints its pages (records written from their parsed value)', async () => {
    const oneGoFiles = await tree(oneGo);
    const dir = await tempDir();
    const pretty: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!res.headers.get('content-type')?.startsWith('application/json')) return res;
      return new Response(JSON.stringify(await res.json(), null, 2), { status: res.status, headers: res.headers });
    };
    await pullBackup({ baseUrl, key: owner.key, workspaceId: owner.companyId, outDir: dir, perPage: 10, fetch: pretty });
    const files = await tree(dir);
    for (const [path, bytes] of oneGoFiles) {
      if (path === 'manifest.json' || path === 'SHA256SUMS') continue;
      expect(files.get(path)?.equals(bytes), path).toBe(true);
    }
    expect((await verifyBackup(dir)).ok).toBe(true);
  });

  it('refuses without a key, with a member key, and with bad options', async () => {
    const dir = await tempDir();
    const noKey = await sheaf(['backup', 'pull', '--out', dir], { SHEAF_URL: baseUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('SHEAF_API_KEY');
    // No workspace id: said as such, before a request whose 401 would blame the key.
    const { SHEAF_WORKSPACE_ID: _id, ...noWorkspace } = envOf(owner);
    const unnamed = await sheaf(['backup', 'pull', '--out', dir], noWorkspace);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('No workspace id: give --workspace ID or set SHEAF_WORKSPACE_ID');
    const forbidden = await sheaf(['backup', 'pull', '--out', dir, '--json'], envOf(member));
    expect(forbidden.code).toBe(2);
    expect(JSON.parse(forbidden.stderr)).toMatchObject({ error: 'forbidden' });
    expect((await sheaf(['backup', 'pull', '--out', dir, '--per-page', '501'], envOf(owner))).code).toBe(2);
    expect((await sheaf(['backup', 'pull'], envOf(owner))).code).toBe(2);
    expect((await sheaf(['backup', 'verify'], {})).code).toBe(2);
    expect((await sheaf(['backup', 'verify', dir, 'extra'], {})).stderr).toContain("Unexpected argument 'extra'");
  });
});

/** A local port with nothing listening on it (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('sheaf backup pull against a server it cannot use', () => {
  it('says the connection was refused and prints each retry as it happens, waiting by the backoff', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const events: string[] = [];
    const failure = pullBackup({
      baseUrl: url,
      key: owner.key,
      outDir: await tempDir(),
      retries: 2,
      progress: (line) => events.push(`progress: ${line}`),
      sleep: async (ms) => void events.push(`sleep ${ms}`),
    });
    await expect(failure).rejects.toThrow(`GET ${url}/api/v2/backup: connection refused (is the server running, and are the host and port right?) [ECONNREFUSED] (gave up after 2 retries)`);
    expect(events).toEqual([
      `progress: GET ${url}/api/v2/backup: connection refused (is the server running, and are the host and port right?) [ECONNREFUSED]; retry 1 of 2 in 1 s`,
      'sleep 1000',
      `progress: GET ${url}/api/v2/backup: connection refused (is the server running, and are the host and port right?) [ECONNREFUSED]; retry 2 of 2 in 2 s`,
      'sleep 2000',
    ]);

    // The command: exit 1, the reason on stderr (--retries 0: no waiting in this test).
    const res = await sheaf(['backup', 'pull', '--out', await tempDir(), '--retries', '0'], envOf(owner, url));
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`sheaf: GET ${url}/api/v2/backup: connection refused (is the server running, and are the host and port right?) [ECONNREFUSED]`);
    expect((await sheaf(['backup', 'pull', '--out', 'x', '--retries', '11'], envOf(owner, url))).code).toBe(2);
  });

  it('fails at once on a refused key (401) and on a TLS error, without retrying', async () => {
    const unknownKey = await sheaf(['backup', 'pull', '--out', await tempDir()], { ...envOf(owner), SHEAF_API_KEY: `${owner.key.slice(0, -4)}AAAA` });
    expect(unknownKey.code).toBe(2);
    expect(unknownKey.stderr).toMatch(/^sheaf: GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/backup: 401 .*check SHEAF_API_KEY/);
    expect(unknownKey.stderr).not.toContain('retry');

    const sleeps: number[] = [];
    const tls = pullBackup({
      baseUrl: baseUrl.replace('http:', 'https:'), // TLS to a server that speaks plain HTTP
      key: owner.key,
      outDir: await tempDir(),
      sleep: async (ms) => void sleeps.push(ms),
    });
    await expect(tls).rejects.toThrow(/: TLS error \[ERR_SSL_[A-Z_]+\]: the server does not speak TLS here \(use an http:\/\/ URL\?\)$/);
    expect(sleeps).toEqual([]);
  });

  it('prints each retry of a 5xx response, then goes on', async () => {
    let failures = 2;
    const flaky: typeof fetch = (input, init) =>
      failures-- > 0 ? Promise.resolve(new Response('down', { status: 503, statusText: 'Service Unavailable' })) : fetch(input, init);
    const progress: string[] = [];
    const summary = await pullBackup({
      baseUrl, key: owner.key, workspaceId: owner.companyId, outDir: await tempDir(), fetch: flaky, sleep: async () => {}, progress: (l) => progress.push(l),
    });
    expect(progress.slice(0, 2)).toEqual([
      `GET ${baseUrl}/api/v2/backup: 503 Service Unavailable; retry 1 of 4 in 1 s`,
      `GET ${baseUrl}/api/v2/backup: 503 Service Unavailable; retry 2 of 4 in 2 s`,
    ]);
    expect(summary.workspace).toEqual({ id: owner.companyId, name: 'Pull Co' });
    expect(pullSentence(summary)).toMatch(new RegExp(`^Backed up workspace "Pull Co" \\(${owner.companyId}\\) into \\S+: \\d+ records in 25 resources and 4 files in \\d+\\.\\d s \\(\\d+ records/s\\)\\.$`));
  });
});

describe('compression', () => {
  it('asks a server on this machine for uncompressed pages, and leaves the default to a remote one', async () => {
    expect(isLoopback('http://127.0.0.1:8080')).toBe(true);
    expect(isLoopback('http://localhost:8080')).toBe(true);
    expect(isLoopback('http://[::1]:8080')).toBe(true);
    expect(isLoopback('https://sheaf.example.com')).toBe(false);
    expect(isLoopback('http://10.0.0.5:8080')).toBe(false);
    const encodings: Array<string | undefined> = [];
    const contentEncodings: Array<string | null> = [];
    const watching: typeof fetch = async (input, init) => {
      encodings.push((init?.headers as Record<string, string>)['accept-encoding']);
      const res = await fetch(input, init);
      contentEncodings.push(res.headers.get('content-encoding'));
      return res;
    };
    await pullBackup({ baseUrl, key: owner.key, workspaceId: owner.companyId, outDir: await tempDir(), fetch: watching });
    expect(new Set(encodings)).toEqual(new Set(['identity']));
    expect(new Set(contentEncodings)).toEqual(new Set([null]));
  });

  it('pulls from a server elsewhere compressed, and writes what an uncompressed pull writes', async () => {
    // The same server by an address that is not a loopback name, as a remote one would be reached.
    const remote = baseUrl.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    expect(isLoopback(remote)).toBe(false);
    const page = await fetch(`${remote}/api/v2/backup/time_entries?per_page=10`, {
      headers: { authorization: `Bearer ${owner.key}`, 'service-account-id': owner.companyId, 'accept-encoding': 'br, gzip' },
    });
    expect(page.headers.get('content-encoding')).toBe('br');
    await page.arrayBuffer();

    const [compressed, plain] = [await tempDir(), await tempDir()];
    const pull = (url: string, outDir: string) => pullBackup({ baseUrl: url, key: owner.key, workspaceId: owner.companyId, outDir, perPage: 10 });
    expect((await pull(remote, compressed)).records).toBeGreaterThan(57);
    await pull(baseUrl, plain);
    await expectSameBackup(compressed, plain);
    expect((await verifyBackup(compressed)).ok).toBe(true);
  });
});

describe('describeFetchError', () => {
  const failed = (cause: unknown) => new TypeError('fetch failed', { cause });
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

  it('names the cause of "fetch failed" by its code', () => {
    expect(describeFetchError(failed(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND sheaf.invalid')))).toEqual({ reason: 'host not found (DNS) [ENOTFOUND]', tls: false });
    expect(describeFetchError(failed(coded('ECONNRESET'))).reason).toBe('the connection was reset [ECONNRESET]');
    // several addresses tried (IPv6 and IPv4): the first one's code
    const aggregate = Object.assign(new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:9'), coded('ECONNREFUSED')]), {});
    expect(describeFetchError(failed(aggregate)).reason).toMatch(/^connection refused .*\[ECONNREFUSED\]$/);
  });

  it('tells TLS errors apart (they are not retried), with a hint for an untrusted certificate', () => {
    expect(describeFetchError(failed(coded('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate')))).toEqual({
      reason: "TLS error [DEPTH_ZERO_SELF_SIGNED_CERT]: the server's certificate is not trusted (its CA can be added with NODE_EXTRA_CA_CERTS)",
      tls: true,
    });
    expect(describeFetchError(failed(coded('CERT_HAS_EXPIRED', 'certificate has expired')))).toEqual({ reason: 'TLS error [CERT_HAS_EXPIRED]: certificate has expired', tls: true });
    expect(describeFetchError(failed(coded('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"))).tls).toBe(true);
  });

  it('falls back to the message of an error without a code', () => {
    expect(describeFetchError(new TypeError('connection reset (simulated)'))).toEqual({ reason: 'connection reset (simulated)', tls: false });
    expect(describeFetchError(failed(coded('EWEIRD', 'something odd')))).toEqual({ reason: 'something odd [EWEIRD]', tls: false });
  });
});

describe('sheaf backup verify', () => {
  async function freshPull() {
    const dir = await tempDir();
    await pullBackup({ baseUrl, key: owner.key, workspaceId: owner.companyId, outDir: dir, perPage: 100 });
    expect((await verifyBackup(dir)).ok).toBe(true);
    return dir;
  }

  it('detects a tampered record', async () => {
    const dir = await freshPull();
    const path = join(dir, 'resources', 'time_entries.jsonl');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"notes":"Work 3"', '"notes":"Work 4"'));
    const res = await sheaf(['backup', 'verify', dir, '--json'], {});
    expect(res.code).toBe(1);
    expect(res.json.ok).toBe(false);
    expect(res.json.problems).toContain('resources/time_entries.jsonl: checksum mismatch (changed or truncated)');
  });

  it('detects a truncated resource file and a missing file', async () => {
    const dir = await freshPull();
    const path = join(dir, 'resources', 'time_entries.jsonl');
    const text = await readFile(path, 'utf8');
    await truncate(path, text.length - 40);
    await rm(join(dir, 'files', 'expenses', seeded.expenseIds[0], 'receipt'));
    const res = await sheaf(['backup', 'verify', dir], {});
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('resources/time_entries.jsonl: checksum mismatch');
    expect(res.stdout).toContain('resources/time_entries.jsonl: the last line is cut off');
    expect(res.stdout).toContain(`files/expenses/${seeded.expenseIds[0]}/receipt: missing`);
  });

  it('detects records removed together with their checksum (counts against the manifest)', async () => {
    const dir = await freshPull();
    const path = join(dir, 'resources', 'clients.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    await writeFile(path, lines.slice(1).join('\n') + '\n');
    const { sha256File } = await import('../src/cli/backup-client.ts');
    const sums = await readFile(join(dir, 'SHA256SUMS'), 'utf8');
    await writeFile(join(dir, 'SHA256SUMS'), sums.replace(/^[0-9a-f]{64}(?= {2}resources\/clients\.jsonl$)/m, await sha256File(path)));
    const result = await verifyBackup(dir);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual(['resources/clients.jsonl: 3 records, the manifest counts 4']);
  });
});

describe('record lines from page bytes', () => {
  const lines = (page: string) => {
    const bytes = Buffer.from(page);
    return recordLines(bytes, JSON.parse(page).records).toString('utf8');
  };

  it('cuts the records out of the page as sent, whatever the spacing between them', () => {
    const records = [
      { id: 'a', s: 'x"],[{\\"records":[1]', n: 1.5, u: 'é😀' },
      { id: 'b', nested: { records: [{ x: 1 }] }, list: [[], {}] },
      { id: 'c' },
    ];
    const compact = JSON.stringify({ backup_schema_version: 1, resource: 'x', records, links: { next: null } });
    expect(lines(compact)).toBe(records.map((r) => JSON.stringify(r) + '\n').join(''));
    const spaced = `{ "resource" : "x", "records" : [ ${records.map((r) => JSON.stringify(r)).join(' ,\t')} ] , "page": 1 }`;
    expect(lines(spaced)).toBe(records.map((r) => JSON.stringify(r) + '\n').join(''));
    // Bytes as the server sent them (number forms, spacing inside a record on one line).
    expect(lines('{"records":[{"a": 1.50, "b" :[ 1 ]},{"c":1E2}],"x":{"records":[9]}}')).toBe('{"a": 1.50, "b" :[ 1 ]}\n{"c":1E2}\n');
    expect(recordSpans(Buffer.from('{"records":[]}'))).toEqual([]);
    expect(recordSpans(Buffer.from('{"other":[{"records":[1]}]}'))).toBeNull();
  });

  it('falls back to the parsed records when a record spans lines or the array cannot be found', () => {
    const records = [{ id: 'a', list: [1, 2] }, { id: 'b' }];
    const expected = records.map((r) => JSON.stringify(r) + '\n').join('');
    expect(lines(JSON.stringify({ records }, null, 2))).toBe(expected);
    // An escaped key is the same key to JSON.parse, not to the byte scan.
    expect(lines(`{"rec\\u006frds":${JSON.stringify(records)}}`)).toBe(expected);
    // The last of two records keys counts, as in JSON.parse.
    expect(lines(`{"records":[{"id":"old"}],"records":${JSON.stringify(records)}}`)).toBe(expected);
  });

  it('reads a compact page without parsing its records: the envelope parsed, the lines cut in place', () => {
    const records = [{ id: 'a', s: 'x"],[{\\"records":[1]', u: 'é😀', nested: [{ k: 1 }, { k: 2 }] }, { id: 'b', n: 1.5 }];
    const text = JSON.stringify({ backup_schema_version: 1, resource: 'x', records, per_page: 2, links: { next: '/api/v2/backup/x?after=b' } });
    const read = readPage(Buffer.from(text), 'x');
    expect(read.records).toBeNull(); // not parsed whole
    expect(read.count).toBe(2);
    expect(read.lines.toString('utf8')).toBe(records.map((r) => JSON.stringify(r) + '\n').join(''));
    expect(read.page).toMatchObject({ backup_schema_version: 1, resource: 'x', records: [], per_page: 2, links: { next: '/api/v2/backup/x?after=b' } });
    expect(readPage(Buffer.from('{"records":[],"links":{"next":null}}'), 'x')).toMatchObject({ count: 0, records: null });
    // A page that may hold download links is parsed whole (the links are walked).
    const linked = readPage(Buffer.from('{"records":[{"receipt_download_url":"/api/v2/expenses/1/receipt"}]}'), 'x');
    expect(linked.records).toEqual([{ receipt_download_url: '/api/v2/expenses/1/receipt' }]);
    expect(linked.lines.toString()).toBe('{"receipt_download_url":"/api/v2/expenses/1/receipt"}\n');
  });

  it('refuses a page whose bytes are not JSON, whether the scan or the parse finds it', () => {
    for (const broken of ['{"records":[{"id":"a}]}', '{"records":[{"id":"a"}]', '{"records":[{"id":"a"}]}}', '{"records":[1,{"id":"a"}]}x']) {
      expect(() => readPage(Buffer.from(broken), 'x'), broken).toThrow(/not JSON/);
    }
    // Records that are not objects are read from the parsed page (as before), never cut from the bytes.
    expect(readPage(Buffer.from('{"records":[1,2]}'), 'x').records).toEqual([1, 2]);
  });

  it('looks for download links whenever a page could hold one', () => {
    expect(mayHoldLinks(Buffer.from('{"records":[{"id":"a"}]}'))).toBe(false);
    expect(mayHoldLinks(Buffer.from('{"records":[{"receipt_download_url":"/api/v2/x"}]}'))).toBe(true);
    expect(mayHoldLinks(Buffer.from('{"records":[{"receipt_download\\u005furl":"/api/v2/x"}]}'))).toBe(true);
  });
});
