import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/http/web-app.ts';
import { createTestContext, type TestContext } from './helpers.ts';

/**
 * The built web app as `sheaf serve` serves it (src/http/web-app.ts), on a stand-in
 * dist directory: caching per kind of file, the SPA fallback, the browser security
 * headers, and the server's own paths left exactly as the API answers them.
 */

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

let dist: string;
let web: TestContext;
let apiOnly: TestContext;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'sheaf-web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Sheaf"}');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
  [web, apiOnly] = await Promise.all([createTestContext({ config: { webDist: dist } }), createTestContext()]);
});

afterAll(async () => {
  await Promise.all([web?.close(), apiOnly?.close()]);
  rmSync(dist, { recursive: true, force: true });
});

const securityHeaders = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

describe('the web app at /', () => {
  it('serves index.html, never cached, with the security headers', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers).toMatchObject(securityHeaders);
    expect(res.body).toBe(INDEX);
  });

  it('the CSP allows no inline script or style and no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it('answers every other page path with index.html (the router in the browser decides)', async () => {
    for (const url of ['/sign-in', '/settings/password?x=1', '/reset-password', '/time/week', '/apiary', '/index.html']) {
      const res = await web.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const head = await web.app.inject({ method: 'HEAD', url: '/settings/password' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
  });

  it('caches hashed assets for a year, immutable, and sends the precompressed copy to who accepts it', async () => {
    const plain = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers).toMatchObject(securityHeaders);

    const br = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
  });

  it('a root file (favicon.svg) is revalidated each time; a missing asset is a 404, never index.html', async () => {
    const icon = await web.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('no-cache');
    for (const url of ['/assets/index-old999.js', '/robots.txt']) {
      const res = await web.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('serves the web app manifest as application/manifest+json, revalidated, with the same CSP (installable on a phone)', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers).toMatchObject(securityHeaders);
    expect(res.json()).toEqual({ name: 'Sheaf' });
  });

  it('never leaves the directory', async () => {
    for (const url of ['/assets/..%2f..%2fpackage.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json', '/assets/..%5c..%5cpackage.json']) {
      const res = await web.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('"name"');
    }
  });
});

describe("the server's own paths are unchanged by the web app", () => {
  const paths = [
    ['GET', '/api/v2/nothing-here'],
    ['GET', '/api'],
    ['GET', '/web/api/nothing-here'],
    ['GET', '/mcp'], // the MCP server's route: its 401 (no key), as without the web app
    ['GET', '/livez/x'],
    ['POST', '/api/v2/nothing-here'],
    ['GET', '/api/v2/approvals/submit'], // a POST-only route: 405 with Allow: POST, as without the app
    ['GET', '/%61pi/v2/nothing-here'], // /api, percent-encoded
    ['GET', '/settings/%zz'], // malformed percent-encoding: the API's 400
  ] as const;

  it.each(paths)('%s %s answers as it does without the web app', async (method, url) => {
    const [withWeb, without] = await Promise.all([web.app.inject({ method, url }), apiOnly.app.inject({ method, url })]);
    expect(withWeb.statusCode).toBe(without.statusCode);
    expect([400, 401, 404, 405]).toContain(withWeb.statusCode);
    expect(withWeb.json()).toEqual(without.json());
    expect(withWeb.headers.allow).toBe(without.headers.allow);
    expect(withWeb.headers['content-type']).toMatch(/^application\/json/);
    expect(withWeb.headers['cache-control']).toBe(without.headers['cache-control']);
    expect(withWeb.headers['content-security-policy']).toBeUndefined();
  });

  it('another method on a page of the app is the API’s 404, as without the app', async () => {
    for (const [method, url] of [['POST', '/settings/password'], ['DELETE', '/']] as const) {
      const [withWeb, without] = await Promise.all([web.app.inject({ method, url }), apiOnly.app.inject({ method, url })]);
      expect(withWeb.statusCode, `${method} ${url}`).toBe(404);
      expect(withWeb.json()).toEqual(without.json());
    }
  });

  it('the health check and the API work as before', async () => {
    const health = await web.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
    const unauthenticated = await web.app.inject({ method: 'GET', url: '/api/v2/users/me' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('without a configured dist, / is not served at all', async () => {
    const res = await apiOnly.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
