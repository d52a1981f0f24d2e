/**
 * The processes of a Sheaf cluster on this machine, without containers: `sheaf serve`
 * nodes and Debian's HAProxy in front of them, on deploy/haproxy.cfg (the file compose.yaml
 * mounts; it takes its addresses from the environment, so nothing is generated or copied).
 * Used by `npm run cluster` (scripts/cluster.ts), test/cluster.test.ts and
 * `npm run bench:cluster` (bench/cluster.ts), so the three run the same layout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const HAPROXY_CONFIG = join(ROOT, 'deploy/haproxy.cfg');
/** The response header HAProxy adds (deploy/haproxy.cfg): which node answered. */
export const NODE_HEADER = 'x-sheaf-node';

/** The haproxy binary: on PATH, or where Debian's package puts it (/usr/sbin is not on every user's PATH); null when missing. */
export function findHaproxy(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(join(dir, 'haproxy'), constants.X_OK);
      return join(dir, 'haproxy');
    } catch {
      // not here
    }
  }
  return null;
}

/** A TCP port free on 127.0.0.1 right now (for HAProxy, whose config needs the number before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Managed {
  child: ChildProcess;
  exited: Promise<Exit>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<Exit>;
}

/** Every process this module started that is still running: stopStarted() ends them, and so does this process's exit. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Stops every node and proxy this module started in this process that still runs, including
 * one still starting (a test whose setup timed out has no handle on it yet).
 */
export async function stopStarted(graceMs = 15_000): Promise<void> {
  await Promise.all([...live].map((child) => manage(child).stop(graceMs)));
}

function manage(child: ChildProcess): Managed {
  if (child.exitCode === null && child.signalCode === null && !live.has(child)) {
    live.add(child);
    child.once('exit', () => live.delete(child));
  }
  const exited = new Promise<Exit>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  return {
    child,
    exited,
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/** Calls `onLine` with each complete line a stream writes. */
function lines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void) {
  if (!stream) return;
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) onLine(line);
  });
}

export interface SheafNode extends Managed {
  name: string;
  /** http://127.0.0.1:PORT */
  url: string;
  /** host:port, as HAProxy's config takes it. */
  address: string;
  pid: number;
}

export interface NodeOptions {
  /** The environment of the process (DATABASE_URL, REDIS_URL, …); PORT and HOST come from `port` and `host`. */
  env: NodeJS.ProcessEnv;
  /** 0 (the default): any free port. */
  port?: number;
  host?: string;
  /** The node binary (default: the one running this). */
  node?: string;
  /** Each line the process writes (its log, its JSON events); default: dropped. */
  output?: (line: string) => void;
  timeoutMs?: number;
}

/**
 * Starts `sheaf serve --json` and resolves once it listens (its `listening` event), with the
 * address it listens on. Rejects, with what it wrote, when it exits first or takes too long.
 */
export async function startNode(name: string, options: NodeOptions): Promise<SheafNode> {
  const host = options.host ?? '127.0.0.1';
  const child = spawn(options.node ?? process.execPath, ['bin/sheaf.js', 'serve', '--json', '--port', String(options.port ?? 0), '--host', host], {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const managed = manage(child);
  const seen: string[] = [];
  const timeoutMs = options.timeoutMs ?? 60_000;
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not listen within ${timeoutMs / 1000} s:\n${seen.join('\n')}`));
    }, timeoutMs);
    const onLine = (line: string) => {
      options.output?.(line);
      if (seen.length < 200) seen.push(line);
      if (!line.startsWith('{"event":"listening"')) return;
      try {
        clearTimeout(timer);
        resolveUrl(JSON.parse(line).url);
      } catch (err) {
        reject(err);
      }
    };
    lines(child.stdout, onLine);
    lines(child.stderr, onLine);
    void managed.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}) before listening:\n${seen.join('\n')}`));
    });
  });
  return { ...managed, name, url, address: new URL(url).host, pid: child.pid! };
}

export interface Proxy extends Managed {
  url: string;
  port: number;
}

/**
 * Starts HAProxy in the foreground (`-db`) on deploy/haproxy.cfg, listening on 127.0.0.1:`port`
 * and balancing over `nodes` (host:port; the config has two servers: one node is named twice),
 * and resolves once it answers /healthz through a node.
 */
export async function startProxy(options: { haproxy: string; port: number; nodes: string[]; output?: (line: string) => void; timeoutMs?: number }): Promise<Proxy> {
  const [first, second = first] = options.nodes;
  const child = spawn(options.haproxy, ['-db', '-f', HAPROXY_CONFIG], {
    cwd: ROOT,
    env: { ...process.env, SHEAF_LB_BIND: `127.0.0.1:${options.port}`, SHEAF_NODE_1: first, SHEAF_NODE_2: second },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const managed = manage(child);
  const seen: string[] = [];
  const onLine = (line: string) => {
    options.output?.(line);
    if (seen.length < 200) seen.push(line);
  };
  lines(child.stdout, onLine);
  lines(child.stderr, onLine);
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`haproxy exited:\n${seen.join('\n')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await managed.stop();
      throw new Error(`haproxy did not answer on ${url}:\n${seen.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...managed, url, port: options.port };
}

