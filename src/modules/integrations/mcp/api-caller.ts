import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * How the MCP tools reach Sheaf: only through the public API (/api/v2), so the API's
 * own schemas validate every input, the access module decides every permission, and a
 * refusal carries the API's own message. One interface, two transports: `app.inject`
 * inside the server (/mcp), `fetch` to SHEAF_URL from `sheaf mcp` (stdio).
 */
export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

export interface ApiAnswer {
  status: number;
  /** The parsed JSON body (the API's error shape for 4xx/5xx), the text when it is not JSON, null when empty. */
  body: unknown;
}

export interface ApiCaller {
  /** `path` is relative to /api/v2 (e.g. `/time_entries`); undefined query values are left out. */
  call(method: ApiMethod, path: string, options?: { query?: Record<string, QueryValue>; body?: unknown }): Promise<ApiAnswer>;
}

/** The caller cannot reach the API at all (network, TLS): the text says what failed. */
export class Unreachable extends Error {}

/** `/api/v2<path>?<query>`: ids in `path` are encoded by the caller (path``). */
function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `/api/v2${path}${search ? `?${search}` : ''}`;
}

/**
 * A path with ids from a tool's arguments: path`/time_entries/${id}/stop`. Each id is
 * encoded, dots too, so an argument such as `../invoices` can never step to another route.
 */
export function path(literals: TemplateStringsArray, ...ids: string[]): string {
  return literals.reduce((out, literal, i) => out + literal + (i < ids.length ? encodeURIComponent(ids[i]).replaceAll('.', '%2E') : ''), '');
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Inside the server: the request's own Authorization and Service-Account-Id (and
 * Accept-Language, for the API's messages) on every inner call. Inner calls are
 * authenticated, checked and counted by the rate limiter like any request, as they
 * are when `sheaf mcp` sends them over the network.
 */
export function injectCaller(app: FastifyInstance, request: FastifyRequest): ApiCaller {
  const forwarded: Record<string, string> = {};
  for (const name of ['authorization', 'service-account-id', 'accept-language']) {
    const value = request.headers[name];
    if (typeof value === 'string') forwarded[name] = value;
  }
  return {
    async call(method, path, { query, body } = {}) {
      const res = await app.inject({
        method,
        url: apiUrl(path, query),
        headers: { ...forwarded, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.statusCode, body: parseBody(res.body) };
    },
  };
}

export interface RemoteApi {
  /** The server's address, e.g. https://sheaf.example.com (SHEAF_URL). */
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
  userAgent?: string;
  timeoutMs?: number;
}

/** Node's low-level causes of a failed fetch, in words a person can act on. */
const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running, and is the port right?)',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved right now',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the server presents a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: the certificate chain contains a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate could not be verified',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate does not match the host name",
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS: the server does not speak TLS on this port (http:// instead of https://?)',
};

function whyUnreachable(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'no answer in time';
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code;
  if (code && NETWORK_CAUSES[code]) return NETWORK_CAUSES[code];
  return cause?.message ?? (err as Error)?.message ?? String(err);
}

/** From `sheaf mcp`: HTTP to a Sheaf server with a full-access key, as any API client. */
export function fetchCaller(remote: RemoteApi): ApiCaller {
  const base = remote.baseUrl.replace(/\/+$/, '');
  const headers = {
    authorization: `Bearer ${remote.apiKey}`,
    'service-account-id': remote.workspaceId,
    accept: 'application/json',
    ...(remote.userAgent ? { 'user-agent': remote.userAgent } : {}),
  };
  return {
    async call(method, path, { query, body } = {}) {
      let res: Response;
      try {
        res = await fetch(`${base}${apiUrl(path, query)}`, {
          method,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(remote.timeoutMs ?? 30_000),
        });
      } catch (err) {
        throw new Unreachable(`Could not reach the Sheaf server at ${base}: ${whyUnreachable(err)}.`);
      }
      return { status: res.status, body: parseBody(await res.text()) };
    },
  };
}
