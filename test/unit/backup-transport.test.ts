import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { get } from '../../src/cli/backup-transport.ts';

/**
 * The backup pull's GET (undici's request API instead of fetch) does what the
 * pull relied on fetch for: inflating compressed bodies, following redirects
 * without carrying the key to another origin, and reporting statuses.
 */

const BODY = JSON.stringify({ records: Array.from({ length: 200 }, (_, i) => ({ id: i, notes: `Entry ${i} — ünïcode` })) });

let home: Server;
let elsewhere: Server;
let homeUrl: string;
let elsewhereUrl: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Answers with the request's Authorization header and Accept-Encoding, as JSON. */
const echo = (req: { headers: Record<string, string | string[] | undefined> }) =>
  JSON.stringify({ authorization: req.headers.authorization ?? null, accept_encoding: req.headers['accept-encoding'] ?? null });

beforeAll(async () => {
  elsewhere = createServer((req, res) => res.end(echo(req)));
  elsewhereUrl = await listen(elsewhere);
  home = createServer((req, res) => {
    switch (req.url) {
      case '/plain':
        return res.end(BODY);
      case '/gzip':
        res.setHeader('content-encoding', 'gzip');
        return res.end(gzipSync(BODY));
      case '/br':
        res.setHeader('content-encoding', 'br');
        return res.end(brotliCompressSync(BODY));
      case '/corrupt':
        res.setHeader('content-encoding', 'gzip');
        return res.end(Buffer.from('this is not gzip at all'));
      case '/echo':
        return res.end(echo(req));
      case '/here':
        return res.writeHead(302, { location: '/echo' }).end();
      case '/away':
        return res.writeHead(302, { location: `${elsewhereUrl}/echo` }).end();
      case '/loop':
        return res.writeHead(302, { location: '/loop' }).end();
      default:
        return res.writeHead(404, 'Nothing Here', { 'content-type': 'application/json', 'x-seen': ['a', 'b'] }).end('{"error":"not_found"}');
    }
  });
  homeUrl = await listen(home);
});

afterAll(async () => {
  for (const server of [home, elsewhere]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const auth = { authorization: 'Bearer secret-key' };

describe('the backup pull GET', () => {
  it('inflates gzip and brotli bodies, and passes others through', async () => {
    for (const path of ['/plain', '/gzip', '/br']) {
      const res = await get(`${homeUrl}${path}`, auth);
      expect(res.status, path).toBe(200);
      expect(res.ok).toBe(true);
      expect(await res.text(), path).toBe(BODY);
    }
    const streamed: Buffer[] = [];
    const res = await get(`${homeUrl}/br`, auth);
    for await (const chunk of res.body!) streamed.push(Buffer.from(chunk));
    expect(Buffer.concat(streamed).toString()).toBe(BODY);
    expect(Buffer.from(await (await get(`${homeUrl}/gzip`, auth)).arrayBuffer()).toString()).toBe(BODY);
  });

  it('fails reading a body that does not inflate', async () => {
    const res = await get(`${homeUrl}/corrupt`, auth);
    await expect(res.text()).rejects.toThrow();
  });

  it('follows a redirect with the key on the same origin and without it to another', async () => {
    const same = await get(`${homeUrl}/here`, auth);
    expect(same.status).toBe(200);
    expect(JSON.parse(await same.text())).toMatchObject({ authorization: 'Bearer secret-key' });
    const other = await get(`${homeUrl}/away`, auth);
    expect(other.status).toBe(200);
    expect(JSON.parse(await other.text())).toEqual({ authorization: null, accept_encoding: null });
  });

  it('refuses a redirect loop (the pull retries it as a failed request, then gives up)', async () => {
    await expect(get(`${homeUrl}/loop`, auth)).rejects.toThrow(/redirect loop/i);
  });

  it('answers an error status with its status text, headers and body', async () => {
    const res = await get(`${homeUrl}/missing`, auth);
    expect(res).toMatchObject({ status: 404, statusText: 'Nothing Here', ok: false });
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.headers.get('x-seen')).toBe('a, b');
    expect(res.headers.get('x-not-there')).toBeNull();
    expect(await res.text()).toBe('{"error":"not_found"}');
  });
});
