/**
 * `npm run cluster`: the layout of compose.yaml without containers, on this machine: the
 * PostgreSQL and Redis that run here, two `sheaf serve` processes on two ports, and Debian's
 * HAProxy in front of them on one port (deploy/haproxy.cfg, the file compose.yaml mounts).
 * Ctrl-C stops all of it.
 *
 *   npm run cluster                         # http://127.0.0.1:8080, nodes on 8081 and 8082
 *   npm run cluster -- --port 9000          # the proxy on 9000, nodes on 9001 and 9002
 *
 * The nodes get the variables of a production node (README "Production"): DATABASE_URL
 * (default postgres://root@127.0.0.1:5432/test, in the schema sheaf_cluster unless
 * DATABASE_SCHEMA says otherwise), REDIS_URL (default redis://127.0.0.1:6379), SMTP_URL (default:
 * a mail sink started here that prints each message's recipients and subject), PUBLIC_URL (default:
 * the proxy's address) and TRUST_PROXY=loopback (the proxy's X-Forwarded-For names the client).
 * Every other variable (LOG_LEVEL, RATE_LIMIT_MAX, …) is passed through as it is set.
 * The web app is built once here when it is missing or stale, not by each node.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { prepareWebApp } from '../src/cli/web-build.ts';
import { findHaproxy, NODE_HEADER, startNode, startProxy, type Proxy, type SheafNode } from './cluster-processes.ts';

const DEFAULT_DATABASE_URL = 'postgres://root@127.0.0.1:5432/test';

const { values } = parseArgs({ options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
if (values.help) {
  console.log('usage: npm run cluster -- [--port N]   (the proxy on N, default 8080; the nodes on N+1 and N+2)');
  process.exit(0);
}
const port = Number(values.port ?? process.env.CLUSTER_PORT ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65533) {
  console.error(`cluster: --port must be a port number from 1 to 65533, not ${values.port}`);
  process.exit(2);
}

const haproxy = findHaproxy();
if (!haproxy) {
  console.error('cluster: haproxy is not installed; on Debian or Ubuntu: sudo apt-get install -y haproxy');
  process.exit(1);
}

const say = (from: string, line: string) => console.log(`[${from}] ${line}`);
const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const schema = process.env.DATABASE_SCHEMA || (process.env.DATABASE_URL ? undefined : 'sheaf_cluster');
const publicUrl = process.env.PUBLIC_URL || `http://127.0.0.1:${port}`;

const stops: Array<() => Promise<unknown>> = [];
let stopping = false;
async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  say('cluster', 'stopping');
  for (const stop of stops.reverse()) await stop().catch((err) => say('cluster', `while stopping: ${err}`));
  process.exit(code);
}
// Ctrl-C reaches the nodes and HAProxy too (one process group); they stop themselves, and this waits for them.
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/** Without SMTP_URL: a sink on a free port that prints what the nodes send, so e-mail works and is seen. */
async function mailSink(): Promise<string> {
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let head = '';
      stream.setEncoding('latin1');
      stream.on('data', (chunk: string) => (head.length < 8192 ? (head += chunk) : undefined));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '(no subject)';
        say('mail', `to ${session.envelope.rcptTo.map((r) => r.address).join(', ')}: ${subject}`);
        callback();
      });
    },
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen()));
  stops.push(() => new Promise<void>((resolveClose) => server.close(() => resolveClose())));
  const { port: smtpPort } = server.server.address() as { port: number };
  say('mail', `no SMTP_URL: e-mail goes to a sink on 127.0.0.1:${smtpPort} and is printed here`);
  return `smtp://127.0.0.1:${smtpPort}`;
}

async function main() {
  const webDist = await prepareWebApp({ info: (m) => say('web', m), warn: (m) => say('web', m) });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    SMTP_URL: process.env.SMTP_URL || (await mailSink()),
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: process.env.TRUST_PROXY || 'loopback',
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    WEB_DIST: webDist ?? 'off',
  };
  // One at a time: the first applies pending migrations, the second finds nothing to do.
  const nodes: SheafNode[] = [];
  for (const [i, name] of ['node1', 'node2'].entries()) {
    const node = await startNode(name, { env, port: port + 1 + i, output: (line) => say(name, line) });
    nodes.push(node);
    stops.push(() => node.stop());
    void node.exited.then(({ code, signal }) => {
      if (!stopping) say(name, `exited (${signal ?? code}); the proxy sends its requests to the other node`);
    });
    say(name, `pid ${node.pid}, ${node.url}`);
  }
  const proxy: Proxy = await startProxy({ haproxy: haproxy!, port, nodes: nodes.map((n) => n.address), output: (line) => say('haproxy', line) });
  stops.push(() => proxy.stop());
  void proxy.exited.then(({ code, signal }) => {
    if (!stopping) {
      say('haproxy', `exited (${signal ?? code})`);
      void stopAll(1);
    }
  });

  const answered = new Set<string>();
  for (let i = 0; i < 4; i++) answered.add((await fetch(`${proxy.url}/healthz`)).headers.get(NODE_HEADER) ?? '?');
  say('cluster', `Sheaf on ${proxy.url} (HAProxy ${haproxy}, answered by ${[...answered].sort().join(' and ')}); PUBLIC_URL ${publicUrl}`);
  say('cluster', `PostgreSQL ${redact(databaseUrl)}${schema ? ` (schema ${schema})` : ''}, Redis ${env.REDIS_URL}; Ctrl-C stops all`);
  if ((await workspaceCount()) === 0) {
    const prefix = [`DATABASE_URL=${redact(databaseUrl)}`, schema ? `DATABASE_SCHEMA=${schema}` : ''].filter(Boolean).join(' ');
    say('cluster', `no workspace yet: ${prefix} npm run sheaf -- admin workspace create --name NAME (see docs/cli.md)`);
  }
}

/** The URL without its password, for the screen. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

async function workspaceCount(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (schema) await client.query(`set search_path to ${schema}`);
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from companies');
    return rows[0]?.n ?? 0;
  } catch {
    return -1; // not knowable (say, no grant): say nothing
  } finally {
    await client.end();
  }
}

main().catch(async (err) => {
  console.error(`cluster: ${err instanceof Error ? err.message : err}`);
  await stopAll(1);
});
