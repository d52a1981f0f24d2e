import { statSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setPathFallback } from './errors.ts';

/**
 * Serves the built web app (web/dist) at `/`: hashed assets cached for a year,
 * index.html never cached (so a new build is picked up at once), and index.html
 * for every other GET outside the server's own paths, where the app's router takes
 * over. Every response of the app carries the browser security headers.
 *
 * No routes: the app answers GETs that no API route serves, from the API's not-found
 * handler (setPathFallback), so the API's 404s and 405s (with Allow) stay exactly as
 * they are, and the route catalog, the security sweep and the OpenAPI document never
 * see the app. Registered by buildApp only when a dist directory is configured.
 */

/** Paths that belong to the server: never answered with the app, so an unknown API path stays a JSON 404. */
const SERVER_PATHS = ['/api', '/web/api', '/healthz', '/livez', '/mcp'];

export const isServerPath = (path: string) => SERVER_PATHS.some((p) => path === p || path.startsWith(`${p}/`));

/** No inline script or style anywhere (React Aria's one <style> is in our CSS, see web/index.html). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const WEB_APP_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Pages opened by someone without an account through a secret link (a client's
 * invoice page, /c#<token>): no Referer ever leaves them and no search engine keeps
 * them. The token is in the fragment, which no request carries; this is the second wall.
 */
const LINK_PAGES = new Set(['/c']);
const LINK_PAGE_HEADERS = { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' };

/** A request path that tries to leave the directory (`..`, `.`, a backslash, NUL), also when percent-encoded. */
function escapes(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return decoded.includes('\\') || decoded.includes('\0') || decoded.split('/').some((segment) => segment === '..' || segment === '.');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export async function registerWebApp(app: FastifyInstance, dist: string) {
  // serve: false: no routes of its own; only reply.sendFile, with the .br/.gz copies the build wrote.
  await app.register(fastifyStatic, { root: dist, serve: false, preCompressed: true });
  setPathFallback(app, (request, reply) => sendAppPath(dist, request, reply));
}

function sendAppPath(dist: string, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const raw = request.url.split('?')[0];
  if (escapes(raw)) return undefined;
  const path = decodeURI(raw); // escapes() decoded it already: this cannot throw
  if (isServerPath(path)) return undefined;
  const file = path.slice(1);
  const last = path.slice(path.lastIndexOf('/') + 1);
  // Hashed by the build: a name is never reused for other content, so caches keep it.
  // A missing one is a 404, never index.html (the browser would report a MIME error instead).
  if (path.startsWith('/assets/')) {
    if (!isFile(join(dist, file))) return undefined;
    reply.code(200).headers(WEB_APP_HEADERS).header('Vary', 'Accept-Encoding');
    return reply.sendFile(file, { maxAge: YEAR_MS, immutable: true });
  }
  // A file of the app's root (favicon.svg): not hashed, so revalidated each time.
  if (/\.[a-z0-9]+$/i.test(last) && !file.includes('/') && last !== 'index.html') {
    if (!isFile(join(dist, file))) return undefined;
    reply.code(200).headers(WEB_APP_HEADERS).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding');
    return reply.sendFile(file, { cacheControl: false });
  }
  // Every other path is a page of the app; its router decides (and shows its own "not found").
  reply.code(200).headers(WEB_APP_HEADERS).header('Cache-Control', 'no-store');
  if (LINK_PAGES.has(path.replace(/\/+$/, ''))) reply.headers(LINK_PAGE_HEADERS);
  return reply.sendFile('index.html', { cacheControl: false, etag: false, lastModified: false });
}
