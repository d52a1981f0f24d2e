import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, stat, truncate, writeFile, appendFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ACCEPTED_ENCODINGS, get, viaFetch, type HttpGet, type HttpResponse } from './backup-transport.ts';

/**
 * `sheaf backup pull` and `sheaf backup verify`: an HTTP client of the backup
 * API (backup-transport.ts), never the database. Layout of a backup directory:
 *
 *   manifest.json                 the server's manifest, byte for byte
 *   resources/<name>.jsonl        one record per line, in the server's order
 *   files/<path after /api/v2/>   every linked file, e.g. files/expenses/<id>/receipt
 *   files.jsonl                   one line per downloaded file: url, path, content_type, byte_size, sha256
 *   SHA256SUMS                    `<sha256>  <path>` for every file above (sha256sum -c reads it)
 *   .sheaf-backup-state.json      progress: the next link of each resource and the byte length
 *                                 written, so an interrupted pull resumes where it stopped
 *
 * Records are written as the server sent them: each record's bytes from the
 * page (checked by parsing the page), so unknown fields are preserved.
 */

export const SUPPORTED_SCHEMA_VERSION = 1;
const STATE_FILE = '.sheaf-backup-state.json';
const SUMS_FILE = 'SHA256SUMS';
const FILES_INDEX = 'files.jsonl';
/** How often at most the state is saved during a resource (see pullBackup). */
const STATE_SAVE_MS = 1000;

export class BackupError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface PullOptions {
  baseUrl: string;
  key: string;
  workspaceId?: string;
  outDir: string;
  perPage?: number;
  /** Sends the GETs instead of backup-transport.ts (the tests' seam). */
  fetch?: typeof fetch;
  /** A progress line (stderr). */
  progress?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  /** Retries of a network error or a 5xx response before giving up (default 4; 429 waits do not count). */
  retries?: number;
}

interface ResourceState {
  next: string | null;
  records: number;
  bytes: number;
  pages: number;
  done: boolean;
  total_entries?: number;
}

interface PullState {
  version: 1;
  base_url: string;
  workspace_id: string | null;
  per_page: number;
  complete: boolean;
  files_bytes: number;
  resources: Record<string, ResourceState>;
}

export interface PullSummary {
  out: string;
  resumed: boolean;
  backup_schema_version: number;
  /** The workspace as the manifest names it: `{ id, name }`. */
  workspace: { id?: string; name?: string } | undefined;
  resources: Record<string, { records: number; manifest_total_entries: number; pages: number }>;
  records: number;
  files: number;
  missing_files: string[];
  count_differences: string[];
  seconds: number;
  records_per_second: number;
}

interface Manifest {
  backup_schema_version: number;
  workspace?: { id?: string; name?: string };
  resources: Array<{ name: string; endpoint: string; total_entries: number }>;
}

const NAME = /^[a-z0-9_]+$/;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

export const sha256File = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });

async function exists(path: string) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes a file completely or not at all (a crash of the process leaves the
 * previous version). `durable` also flushes it to disk first: for the final
 * files, not for the state written after every page (a flush per page would
 * cost more than the page).
 */
async function writeAtomic(path: string, data: string | Buffer, durable = false) {
  const tmp = `${path}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
}

function checkManifest(m: Manifest) {
  if (m.backup_schema_version !== SUPPORTED_SCHEMA_VERSION) {
    throw new BackupError(
      `The server's backup_schema_version is ${m.backup_schema_version}; this sheaf understands version ${SUPPORTED_SCHEMA_VERSION} only: upgrade sheaf.`,
    );
  }
  if (!Array.isArray(m.resources)) throw new BackupError('The manifest has no resources list.');
  for (const r of m.resources) {
    if (!NAME.test(r.name)) throw new BackupError(`The manifest names a resource '${r.name}' that cannot be a file name.`);
    if (typeof r.endpoint !== 'string' || !r.endpoint.startsWith('/')) throw new BackupError(`Resource ${r.name} has no endpoint.`);
  }
}

/** The local path of a linked file: `files/` + the URL's path after /api/v2/, each segment checked. */
export function filePathOf(url: string): string {
  const path = url.split('?')[0].replace(/^\/api\/v2\//, '');
  const segments = path.split('/');
  if (!url.startsWith('/api/v2/') || segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) {
    throw new BackupError(`Refusing a download link that is not a plain API path: ${url}`);
  }
  return join('files', ...segments);
}

/**
 * Whether a page's text can hold a key ending in `download_url`: it contains
 * those letters, or a \\u escape (which could spell them).
 */
const DOWNLOAD_URL = Buffer.from('download_url');
const UNICODE_ESCAPE = Buffer.from('\\u');
export const mayHoldLinks = (bytes: Buffer) => bytes.includes(DOWNLOAD_URL) || bytes.includes(UNICODE_ESCAPE);

/** Every download link in a record (any key ending in `download_url`, at any depth). */
export function linksOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) linksOf(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.endsWith('download_url') && typeof v === 'string') into.push(v);
      else if (v && typeof v === 'object') linksOf(v, into);
    }
  }
  return into;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NL = 0x0a;
const CR = 0x0d;
const RECORDS_KEY = '"records"';

/** Where the top-level `records` array and its elements lie in a page's bytes. */
export interface RecordsLayout {
  /** [start, end) offsets of each element, two per element. */
  spans: number[];
  /** The offsets of the array's `[` and `]`. */
  open: number;
  close: number;
}

/**
 * Where the elements of the top-level `records` array lie in a page's bytes
 * (a page already parsed as valid JSON): [start, end) offsets, two per
 * element, or null when there is no such array.
 */
export function recordSpans(b: Buffer): number[] | null {
  return recordsLayout(b)?.spans ?? null;
}

/**
 * The top-level `records` array of a page's bytes: its brackets and its
 * elements' spans, or null when there is no such array or the bytes are not
 * well-formed (an unterminated string, unbalanced brackets). Structural
 * characters are ASCII and UTF-8 never puts an ASCII byte inside a multi-byte
 * character, so the bytes are scanned directly; strings are skipped byte by
 * byte (most are short keys, where a loop beats a native indexOf call). When
 * `records` occurs twice, the last one counts, as in JSON.parse.
 */
export function recordsLayout(b: Buffer): RecordsLayout | null {
  const n = b.length;
  let depth = 0;
  let expectKey = false;
  let keyIsRecords = false;
  let valueIsRecords = false;
  let inRecords = false;
  let start = -1;
  let open = -1;
  let spans: number[] = [];
  let found: RecordsLayout | null = null;
  const endOf = (i: number) => {
    while (b[i - 1] <= 0x20) i--;
    return i;
  };
  for (let i = 0; i < n; i++) {
    const c = b[i];
    if (c === QUOTE) {
      const from = i;
      // The closing quote: the first one not escaped.
      for (i++; ; i++) {
        if (i >= n) return null;
        const d = b[i];
        if (d === QUOTE) break;
        if (d === BACKSLASH) i++;
      }
      if (inRecords && depth === 2 && start < 0) start = from;
      if (depth === 1 && expectKey) {
        keyIsRecords = i + 1 - from === RECORDS_KEY.length && b.toString('latin1', from, i + 1) === RECORDS_KEY;
        expectKey = false;
      } else if (depth === 1) valueIsRecords = false;
      continue;
    }
    if (c <= 0x20) continue; // whitespace (JSON allows no other byte below 0x21 outside strings)
    if (c === 0x7b || c === 0x5b) {
      if (depth === 1 && c === 0x5b && valueIsRecords) {
        inRecords = true;
        spans = [];
        open = i;
        depth = 2;
        continue;
      }
      if (inRecords && depth === 2 && start < 0) start = i;
      if (depth === 1) valueIsRecords = false;
      depth++;
      if (depth === 1) expectKey = c === 0x7b;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      if (inRecords && depth === 2) {
        if (start >= 0) spans.push(start, endOf(i));
        start = -1;
        inRecords = false;
        found = { spans, open, close: i };
        depth = 1;
        continue;
      }
      if (--depth < 0) return null;
      continue;
    }
    if (c === COMMA) {
      if (inRecords && depth === 2) {
        spans.push(start, endOf(i));
        start = -1;
      } else if (depth === 1) expectKey = true;
      continue;
    }
    if (c === 0x3a) {
      if (depth === 1) valueIsRecords = keyIsRecords;
      continue;
    }
    if (inRecords && depth === 2 && start < 0) start = i;
    if (depth === 1) valueIsRecords = false;
  }
  return depth === 0 ? found : null;
}

/**
 * A page's records as JSON Lines, made in place in the page's own bytes: each
 * record's bytes as the server sent them, the separating commas of a compact
 * page turned into newlines (and the byte after the last record too). Returns
 * the slice to write, or null when the records are not written in one run of
 * bytes separated by single commas, or a record spans lines (a
 * pretty-printing server): then they are written from their parsed values.
 */
function linesInPlace(bytes: Buffer, spans: number[]): Buffer | null {
  if (spans.length === 0) return Buffer.alloc(0);
  const first = spans[0];
  const last = spans[spans.length - 1];
  const region = bytes.subarray(first, last);
  if (region.includes(NL) || region.includes(CR)) return null;
  for (let k = 2; k < spans.length; k += 2) if (spans[k] !== spans[k - 1] + 1) return null;
  for (let k = 1; k < spans.length; k += 2) bytes[spans[k]] = NL;
  return bytes.subarray(first, last + 1);
}

/**
 * A page's records as JSON Lines: each record's bytes as the server sent them
 * (no parse + re-serialize), so unknown fields are kept as they are. A page
 * whose records cannot be located in the bytes, or whose records span lines
 * (a pretty-printing server), is written from its parsed value instead.
 */
export function recordLines(bytes: Buffer, records: unknown[]): Buffer {
  const spans = records.length ? recordSpans(bytes) : null;
  const fromValues = () => Buffer.from(records.map((rec) => JSON.stringify(rec) + '\n').join(''));
  if (!spans || spans.length !== 2 * records.length) return fromValues();
  const region = bytes.subarray(spans[0], spans[spans.length - 1]);
  if (region.includes(NL) || region.includes(CR)) return fromValues();
  let size = 0;
  for (let k = 0; k < spans.length; k += 2) size += spans[k + 1] - spans[k] + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let k = 0; k < spans.length; k += 2) {
    at += bytes.copy(out, at, spans[k], spans[k + 1]);
    out[at++] = NL;
  }
  return out;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A page read from its bytes: the envelope, and the records as JSON Lines to append (or their parsed values). */
export interface ReadPage {
  page: Page;
  /** The number of records on the page. */
  count: number;
  /** The records as JSON Lines, ready to append. */
  lines: Buffer;
  /** The parsed records, when the page was parsed whole (it may hold download links); else null. */
  records: unknown[] | null;
}

/**
 * Reads a page's bytes. A compact page that cannot hold a download link (see
 * mayHoldLinks) is not parsed whole: the scan of recordsLayout locates its
 * records (and refuses unterminated strings or unbalanced brackets), each must
 * be an object, the envelope around them is parsed, and the records are turned
 * into JSON Lines in place. Parsing a page's records whole cost the client
 * more than the rest of the pull (and most of its garbage); `verify` parses
 * every line afterwards. Any other page is parsed whole, as before. The page
 * bytes are modified.
 */
export function readPage(bytes: Buffer, what: string): ReadPage {
  const layout = mayHoldLinks(bytes) ? null : recordsLayout(bytes);
  if (layout) {
    const { spans, open, close } = layout;
    let objects = true;
    for (let k = 0; k < spans.length && objects; k += 2) objects = bytes[spans[k]] === OPEN_BRACE && bytes[spans[k + 1] - 1] === CLOSE_BRACE;
    if (objects) {
      let page: Page;
      try {
        page = JSON.parse(bytes.toString('utf8', 0, open + 1) + bytes.toString('utf8', close)) as Page;
      } catch {
        throw new BackupError(`GET ${what}: the response is not JSON.`);
      }
      if (page && Array.isArray(page.records) && page.records.length === 0) {
        const lines = linesInPlace(bytes, spans);
        if (lines) return { page, count: spans.length / 2, lines, records: null };
      }
    }
  }
  let page: Page;
  try {
    page = JSON.parse(bytes.toString('utf8')) as Page;
  } catch {
    throw new BackupError(`GET ${what}: the response is not JSON.`);
  }
  const records = Array.isArray(page?.records) ? page.records : [];
  return { page, count: records.length, lines: records.length ? recordLines(bytes, records) : Buffer.alloc(0), records };
}

/** What a network failure of fetch says, by the `code` of its cause (undici's "fetch failed" says nothing). */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running, and are the host and port right?)',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed (temporary failure)',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending',
  UND_ERR_SOCKET: 'the server closed the connection',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

interface FetchFailure {
  /** Human words for what failed, e.g. "connection refused (...)". */
  reason: string;
  /** A TLS failure (certificate, protocol): retrying cannot help. */
  tls: boolean;
}

/**
 * Why a fetch failed, in words: the code of the error's cause (for an
 * AggregateError of several addresses, of its first error), with a hint for
 * the common cases. TLS errors are told apart because retrying them is useless.
 */
export function describeFetchError(err: unknown): FetchFailure {
  const e = err as (Error & { cause?: unknown }) | undefined;
  let cause = (e?.cause ?? e) as (Error & { code?: string; errors?: Array<Error & { code?: string }> }) | undefined;
  if (!cause?.code && cause?.errors?.length) cause = cause.errors[0];
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = (cause?.message ?? String(err)).split('\n')[0].trim();
  if (code && NETWORK_FAILURES[code]) return { reason: `${NETWORK_FAILURES[code]} [${code}]`, tls: false };
  if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) {
    const hint = /WRONG_VERSION|PACKET_LENGTH/.test(code)
      ? ': the server does not speak TLS here (use an http:// URL?)'
      : /SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|CERT_UNTRUSTED/.test(code)
        ? ": the server's certificate is not trusted (its CA can be added with NODE_EXTRA_CA_CERTS)"
        : '';
    return { reason: `TLS error [${code}]${hint}${message && !hint ? `: ${message}` : ''}`, tls: true };
  }
  return { reason: code ? `${message} [${code}]` : message || 'the request failed', tls: false };
}

/**
 * Whether the server is on this machine. Pages are then asked for uncompressed:
 * compressing a page (the server's brotli) and inflating it (here) cost both
 * processes more CPU than anything else they do for it, and save no time where
 * there is no network. Across a network they are asked for compressed (ACCEPTED_ENCODINGS).
 */
export function isLoopback(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now());
}

class Http {
  private readonly send: HttpGet;
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly o: PullOptions) {
    this.send = o.fetch ? viaFetch(o.fetch) : get;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private headers() {
    const h: Record<string, string> = { authorization: `Bearer ${this.o.key}` };
    if (this.o.workspaceId) h['service-account-id'] = this.o.workspaceId;
    h['accept-encoding'] = isLoopback(this.o.baseUrl) ? 'identity' : ACCEPTED_ENCODINGS;
    return h;
  }

  /**
   * Waits before retry number `failures` (exponential backoff), saying so on
   * the progress line first, so a server that is down is not 17 s of silence.
   */
  private async retry(what: string, failures: number, retries: number) {
    const wait = Math.min(30_000, 500 * 2 ** failures);
    this.o.progress?.(`${what}; retry ${failures} of ${retries} in ${wait / 1000} s`);
    await this.sleep(wait);
  }

  /** GET with the same headers every time; waits out 429s, retries network errors and 5xx; 4xx and TLS errors fail at once. */
  async get(path: string): Promise<HttpResponse> {
    const url = new URL(path, this.o.baseUrl).toString();
    const retries = this.o.retries ?? 4;
    let failures = 0;
    for (;;) {
      let res: HttpResponse;
      try {
        res = await this.send(url, this.headers());
      } catch (err) {
        const { reason, tls } = describeFetchError(err);
        const what = `GET ${url}: ${reason}`;
        if (tls) throw new BackupError(what);
        if (++failures > retries) throw new BackupError(retries ? `${what} (gave up after ${retries} retries)` : what);
        await this.retry(what, failures, retries);
        continue;
      }
      if (res.status === 429) {
        const wait = retryAfterMs(res.headers.get('retry-after'));
        await res.arrayBuffer().catch(() => undefined);
        this.o.progress?.(`rate limited: waiting ${Math.ceil(wait / 1000)} s (Retry-After)`);
        await this.sleep(wait);
        continue;
      }
      if (res.status >= 500 && ++failures <= retries) {
        await res.arrayBuffer().catch(() => undefined);
        await this.retry(`GET ${url}: ${res.status} ${res.statusText}`.trimEnd(), failures, retries);
        continue;
      }
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        let body: Record<string, unknown> | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const message = typeof body?.message === 'string' ? body.message : text.slice(0, 200) || res.statusText;
        const hint =
          res.status === 401
            ? ' (the server refused the key: check SHEAF_API_KEY, and SHEAF_WORKSPACE_ID or --workspace)'
            : res.status === 403
              ? ' (the backup needs a full-access key of an owner or administrator)'
              : '';
        throw new BackupError(`GET ${url}: ${res.status} ${message}${hint}`, res.status, body);
      }
      return res;
    }
  }

  /**
   * Buffers for page bodies, reused: a pull has at most two pages at a time (one being written,
   * the next arriving), and allocating a fresh buffer of a few hundred KiB per page made the
   * client's memory grow and cost page faults.
   */
  private readonly spare: Buffer[] = [];

  /** A response's bytes, read into a reused buffer: call `release` once they are no longer needed. */
  async page(path: string): Promise<{ bytes: Buffer; release: () => void }> {
    const res = await this.get(path);
    let buf = this.spare.pop() ?? Buffer.allocUnsafe(Math.max(64 * 1024, Number(res.headers.get('content-length')) || 0));
    let n = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        if (n + chunk.length > buf.length) {
          const bigger = Buffer.allocUnsafe(Math.max(2 * buf.length, n + chunk.length));
          buf.copy(bigger, 0, 0, n);
          buf = bigger;
        }
        buf.set(chunk, n);
        n += chunk.length;
      }
    }
    const owned = buf;
    return { bytes: owned.subarray(0, n), release: () => void (this.spare.length < 2 && this.spare.push(owned)) };
  }

  async json<T>(path: string): Promise<{ text: string; body: T }> {
    const res = await this.get(path);
    const text = await res.text();
    try {
      return { text, body: JSON.parse(text) as T };
    } catch {
      throw new BackupError(`GET ${path}: the response is not JSON.`);
    }
  }
}

interface Page {
  backup_schema_version: number;
  resource: string;
  records: unknown[];
  total_entries: number;
  links: { next: string | null };
}

const withPerPage = (endpoint: string, perPage: number) => `${endpoint}${endpoint.includes('?') ? '&' : '?'}per_page=${perPage}`;

/**
 * Pulls a workspace backup into `outDir`, resuming an unfinished pull found
 * there (same server and workspace). Resolves with a summary; rejects when the
 * server refuses or keeps failing, leaving the state to resume from.
 */
export async function pullBackup(o: PullOptions): Promise<PullSummary> {
  const started = Date.now();
  const http = new Http(o);
  const perPage = o.perPage ?? 500;
  const dir = o.outDir;
  const statePath = join(dir, STATE_FILE);
  await mkdir(join(dir, 'resources'), { recursive: true });

  let state: PullState | null = null;
  if (await exists(statePath)) {
    const previous = JSON.parse(await readFile(statePath, 'utf8')) as PullState;
    if (!previous.complete) {
      if (previous.base_url !== o.baseUrl || previous.workspace_id !== (o.workspaceId ?? null)) {
        throw new BackupError(
          `${dir} holds an unfinished pull of ${previous.base_url} (workspace ${previous.workspace_id}); use another directory or the same server and workspace.`,
        );
      }
      state = previous;
    }
  }
  const resumed = state !== null;
  let manifest: Manifest;
  if (state) {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    checkManifest(manifest);
    o.progress?.(`resuming the pull in ${dir}`);
  } else {
    const { text, body } = await http.json<Manifest>('/api/v2/backup');
    checkManifest(body);
    manifest = body;
    await writeAtomic(join(dir, 'manifest.json'), text);
    await writeFile(join(dir, FILES_INDEX), '');
    state = { version: 1, base_url: o.baseUrl, workspace_id: o.workspaceId ?? null, per_page: perPage, complete: false, files_bytes: 0, resources: {} };
    await writeAtomic(statePath, JSON.stringify(state));
  }
  const st = state;
  const save = () => writeAtomic(statePath, JSON.stringify(st));

  // Files downloaded so far (the index is cut back to what the state recorded).
  const filesIndex = join(dir, FILES_INDEX);
  await truncate(filesIndex, st.files_bytes);
  const downloaded = new Set<string>();
  const missing: string[] = [];
  for (const line of (await readFile(filesIndex, 'utf8')).split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line) as { url: string; missing?: boolean };
    downloaded.add(entry.url);
    if (entry.missing) missing.push(entry.url);
  }

  const download = async (url: string) => {
    if (downloaded.has(url)) return;
    const path = filePathOf(url);
    let entry: Record<string, unknown>;
    try {
      const res = await http.get(url);
      const data = Buffer.from(await res.arrayBuffer());
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeAtomic(join(dir, path), data);
      entry = {
        url,
        path,
        content_type: res.headers.get('content-type'),
        byte_size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      };
    } catch (err) {
      // Deleted since its record was read (a crawl is not a snapshot): noted, not fatal.
      if (!(err instanceof BackupError) || err.status !== 404) throw err;
      entry = { url, path, missing: true };
      missing.push(url);
      o.progress?.(`file gone meanwhile: ${url}`);
    }
    const line = JSON.stringify(entry) + '\n';
    await appendFile(filesIndex, line);
    st.files_bytes += Buffer.byteLength(line);
    downloaded.add(url);
  };

  let records = 0;
  // The state is saved after a page at most every STATE_SAVE_MS (and at the end of each resource):
  // a resume redoes at most that much, and a save per page cost more than the page's own write.
  let savedAt = 0;
  const saveSoon = async (force: boolean) => {
    const now = Date.now();
    if (!force && now - savedAt < STATE_SAVE_MS) return;
    savedAt = now;
    await save();
  };
  try {
    for (const r of manifest.resources) {
      const rs: ResourceState = (st.resources[r.name] ??= {
        next: withPerPage(r.endpoint, st.per_page),
        records: 0,
        bytes: 0,
        pages: 0,
        done: false,
      });
      const file = join(dir, 'resources', `${r.name}.jsonl`);
      if (!(await exists(file))) await writeFile(file, '');
      // Drop whatever a crash wrote after the last recorded page.
      await truncate(file, rs.bytes);
      const out = await open(file, 'a');
      try {
        // The next page is requested as soon as its link is known, so the server works on it while this page is written.
        let pending = !rs.done && rs.next ? http.page(rs.next) : null;
        while (pending) {
          const { bytes, release } = await pending;
          pending = null;
          const { page, count, lines, records: parsed } = readPage(bytes, rs.next!);
          if (page.backup_schema_version !== SUPPORTED_SCHEMA_VERSION) {
            throw new BackupError(`${rs.next}: backup_schema_version ${page.backup_schema_version}, expected ${SUPPORTED_SCHEMA_VERSION}.`);
          }
          if (!Array.isArray(page.records)) throw new BackupError(`${rs.next}: the page has no records array.`);
          const nextLink = page.links?.next ?? null;
          if (nextLink) {
            pending = http.page(nextLink);
            pending.catch(() => undefined); // handled when awaited
          }
          if (parsed) for (const url of linksOf(parsed)) await download(url);
          if (count) {
            // Awaited before the next page is read: one page in memory being written, one arriving.
            await out.write(lines);
            rs.bytes += lines.length;
            rs.records += count;
          }
          release();
          rs.pages++;
          rs.total_entries = page.total_entries;
          rs.next = nextLink;
          if (!rs.next) rs.done = true;
          await saveSoon(rs.done);
          o.progress?.(`${r.name}: ${rs.records}/${page.total_entries}`);
        }
      } finally {
        await out.close();
      }
      if (!rs.done) {
        rs.done = true;
        await save();
      }
      records += rs.records;
    }
  } catch (err) {
    // A pull that fails (network, server, refusal) records where it stopped: the state matches
    // what was written (each page's lines are counted once written), so a resume loses nothing.
    await save().catch(() => undefined);
    throw err;
  }

  // Checksums of everything written, then the pull is complete.
  const sums: string[] = [];
  const sum = async (path: string) => sums.push(`${await sha256File(join(dir, path))}  ${path}`);
  await sum('manifest.json');
  for (const r of manifest.resources) await sum(`resources/${r.name}.jsonl`);
  await sum(FILES_INDEX);
  for (const line of (await readFile(filesIndex, 'utf8')).split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line) as { path: string; sha256?: string; missing?: boolean };
    if (!entry.missing) sums.push(`${entry.sha256}  ${entry.path.split('\\').join('/')}`);
  }
  await writeAtomic(join(dir, SUMS_FILE), sums.join('\n') + '\n', true);
  st.complete = true;
  await save();

  const seconds = (Date.now() - started) / 1000;
  const resources: PullSummary['resources'] = {};
  const differences: string[] = [];
  for (const r of manifest.resources) {
    const rs = st.resources[r.name];
    resources[r.name] = { records: rs.records, manifest_total_entries: r.total_entries, pages: rs.pages };
    if (rs.records !== r.total_entries) differences.push(`${r.name}: ${rs.records} records, the manifest counted ${r.total_entries}`);
  }
  return {
    out: dir,
    resumed,
    backup_schema_version: manifest.backup_schema_version,
    workspace: manifest.workspace,
    resources,
    records,
    files: downloaded.size - missing.length,
    missing_files: missing,
    count_differences: differences,
    seconds,
    records_per_second: seconds > 0 ? Math.round(records / seconds) : records,
  };
}

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  resources: Record<string, { expected: number; found: number }>;
  files: number;
}

/** Counts the lines of a JSON Lines file, checking each is a JSON object and the file ends with a newline. */
async function countRecords(path: string, problems: string[], label: string): Promise<number> {
  let n = 0;
  let bad = 0;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    n++;
    try {
      const v = JSON.parse(line);
      if (!v || typeof v !== 'object' || Array.isArray(v)) bad++;
    } catch {
      bad++;
    }
  }
  if (bad) problems.push(`${label}: ${bad} line(s) are not JSON records (truncated or edited)`);
  const size = (await stat(path)).size;
  if (size > 0) {
    const handle = await open(path, 'r');
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    await handle.close();
    if (last[0] !== 0x0a) problems.push(`${label}: the last line is cut off`);
  }
  return n;
}

/**
 * Checks a backup directory: the pull finished, every checksum matches, every
 * resource of the manifest has its file with as many records as the manifest
 * counted, and every downloaded file is present.
 */
export async function verifyBackup(dir: string): Promise<VerifyResult> {
  const problems: string[] = [];
  const resources: VerifyResult['resources'] = {};
  const read = async (path: string) => readFile(join(dir, path), 'utf8').catch(() => null);

  const stateText = await read(STATE_FILE);
  if (stateText && !(JSON.parse(stateText) as PullState).complete) problems.push('the pull did not finish: run sheaf backup pull again to resume it');

  const manifestText = await read('manifest.json');
  let manifest: Manifest | null = null;
  if (manifestText === null) problems.push('manifest.json is missing');
  else {
    try {
      manifest = JSON.parse(manifestText) as Manifest;
      checkManifest(manifest);
    } catch (err) {
      problems.push(`manifest.json: ${(err as Error).message}`);
      manifest = null;
    }
  }

  const sumsText = await read(SUMS_FILE);
  const sums = new Map<string, string>();
  if (sumsText === null) problems.push(`${SUMS_FILE} is missing`);
  else {
    for (const line of sumsText.split('\n')) {
      if (!line) continue;
      const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
      if (!m) {
        problems.push(`${SUMS_FILE}: malformed line '${line.slice(0, 80)}'`);
        continue;
      }
      sums.set(m[2], m[1]);
    }
    for (const [path, expected] of sums) {
      if (path.split('/').some((s) => s === '..')) {
        problems.push(`${SUMS_FILE}: refusing path ${path}`);
        continue;
      }
      const full = join(dir, path);
      if (!(await exists(full))) problems.push(`${path}: missing`);
      else if ((await sha256File(full)) !== expected) problems.push(`${path}: checksum mismatch (changed or truncated)`);
    }
  }

  if (manifest) {
    for (const r of manifest.resources) {
      const path = `resources/${r.name}.jsonl`;
      if (!sums.has(path)) problems.push(`${path}: not listed in ${SUMS_FILE}`);
      const full = join(dir, path);
      if (!(await exists(full))) {
        problems.push(`${path}: missing`);
        resources[r.name] = { expected: r.total_entries, found: 0 };
        continue;
      }
      const found = await countRecords(full, problems, path);
      resources[r.name] = { expected: r.total_entries, found };
      if (found !== r.total_entries) problems.push(`${path}: ${found} records, the manifest counts ${r.total_entries}`);
    }
    if (!sums.has('manifest.json')) problems.push(`manifest.json: not listed in ${SUMS_FILE}`);
  }

  let files = 0;
  const index = await read(FILES_INDEX);
  if (index === null) problems.push(`${FILES_INDEX} is missing`);
  else {
    if (!sums.has(FILES_INDEX)) problems.push(`${FILES_INDEX}: not listed in ${SUMS_FILE}`);
    for (const line of index.split('\n')) {
      if (!line) continue;
      let entry: { path?: string; sha256?: string; missing?: boolean };
      try {
        entry = JSON.parse(line);
      } catch {
        problems.push(`${FILES_INDEX}: a line is not JSON`);
        continue;
      }
      if (entry.missing) continue;
      files++;
      const path = String(entry.path).split('\\').join('/');
      if (sums.get(path) !== entry.sha256) problems.push(`${path}: not listed in ${SUMS_FILE} with its checksum`);
    }
  }
  return { ok: problems.length === 0, problems, resources, files };
}
