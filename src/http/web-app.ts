import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built web app (web/dist) at `/`: hashed assets cached for a year,
 * index.html never cached (so a new build is picked up at once), and index.html
 * for every other GET outside the server's own paths, where the app's router takes
 * over. Every response of the app carries the browser security headers.
 * Registered by buildApp only when a dist directory is configured.
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

/** A request path that tries to leave the directory (`..`, a backslash, NUL), also when percent-encoded. */
function escapes(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return decoded.includes('\\') || decoded.includes('\0') || decoded.split('/').some((segment) => segment === '..' || segment === '.');
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

export async function registerWebApp(app: FastifyInstance, dist: string) {
  // Encapsulated: sendFile exists for the app's routes only.
  await app.register(async (web) => {
    await web.register(fastifyStatic, { root: dist, serve: false, preCompressed: true });

    const options = { config: { access: 'public' as const }, schema: { hide: true }, logLevel: 'warn' as const };

    // Hashed by the build: a name is never reused for other content, so caches keep it.
    web.get('/assets/*', options, (request, reply) => {
      const path = pathOf(request);
      if (escapes(path)) return reply.callNotFound();
      reply.headers(WEB_APP_HEADERS).header('Vary', 'Accept-Encoding');
      return reply.sendFile(path.slice(1), { maxAge: YEAR_MS, immutable: true });
    });

    web.get('/*', options, (request, reply) => sendAppPath(request, reply));
  });
}

function sendAppPath(request: FastifyRequest, reply: FastifyReply) {
  const path = pathOf(request);
  if (isServerPath(path) || escapes(path)) return reply.callNotFound();
  // Set only here, where the app answers: a path handed back to the API keeps the API's headers.
  reply.headers(WEB_APP_HEADERS);
  const last = path.slice(path.lastIndexOf('/') + 1);
  // A file of the app's root (favicon.svg): not hashed, so revalidated each time.
  if (/\.[a-z0-9]+$/i.test(last) && !path.slice(1).includes('/') && last !== 'index.html') {
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile(last, { cacheControl: false });
  }
  // Every other path is a page of the app; its router decides (and shows its own "not found").
  reply.header('Cache-Control', 'no-store');
  return reply.sendFile('index.html', { cacheControl: false, etag: false, lastModified: false });
}
