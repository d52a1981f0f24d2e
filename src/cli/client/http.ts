import { describeFetchError } from '../backup-client.ts';

/**
 * The person commands' HTTP client of a Sheaf server's /api/v2 (global fetch,
 * never the database). Every request carries the key and the workspace id
 * (Authorization, Service-Account-Id); a refusal becomes an ApiRefusal with
 * the API's own code, message and field, and a request that never got an
 * answer a ConnectionFailure saying why (connection refused, DNS, TLS), not
 * undici's "fetch failed".
 */

export interface Credentials {
  url: string;
  key: string;
  workspaceId: string;
  /** Where they came from, for messages: "SHEAF_API_KEY", "profile \"work\" (~/.config/sheaf/profiles.json)". */
  source: string;
}

/** The server answered with an error (4xx or 5xx). */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    /** The API's `error` code (http_error when the body is not the API's JSON). */
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** No answer at all: the server could not be reached. */
export class ConnectionFailure extends Error {}

/** A 429 is waited out at most this often, each wait at most 60 s (Retry-After). */
const RATE_LIMIT_RETRIES = 3;

type Query = Record<string, string | number | boolean | undefined>;

export class ApiClient {
  constructor(
    readonly credentials: Credentials,
    private readonly fetchFn: typeof fetch = globalThis.fetch,
  ) {}

  /** The URL of an /api/v2 path with the query's defined values. */
  url(path: string, query: Query = {}): string {
    const url = new URL(path.replace(/^\//, ''), this.credentials.url.replace(/\/*$/, '/'));
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** The raw response of a request that succeeded (2xx); anything else throws. */
  async send(method: string, path: string, options: { query?: Query; json?: unknown; form?: FormData; accept?: string } = {}): Promise<Response> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.credentials.key}`,
      'service-account-id': this.credentials.workspaceId,
      accept: options.accept ?? 'application/json',
    };
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) body = options.form; // fetch sets the multipart boundary
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchFn(url, { method, headers, body });
      } catch (err) {
        throw new ConnectionFailure(`${method} ${url}: ${describeFetchError(err).reason}`);
      }
      if (res.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        const seconds = Number(res.headers.get('retry-after'));
        await res.arrayBuffer().catch(() => undefined);
        await new Promise((r) => setTimeout(r, Math.min(60, Number.isFinite(seconds) ? seconds : 1) * 1000));
        continue;
      }
      if (!res.ok) throw await this.refusal(method, url, res);
      return res;
    }
  }

  private async refusal(method: string, url: string, res: Response): Promise<ApiRefusal> {
    const text = await res.text().catch(() => '');
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (typeof body?.error !== 'string' || typeof body.message !== 'string') {
      // Not the API's error body: another server at this address, or a proxy's page.
      return new ApiRefusal(
        res.status,
        'http_error',
        `${method} ${url}: ${res.status} ${res.statusText} (not an answer of the Sheaf API: is ${this.credentials.url} a Sheaf server?)`,
      );
    }
    let message = body.message;
    if (res.status === 401) message += ` (the server refused the key from ${this.credentials.source}: check the key and the workspace id, or run "sheaf login" again)`;
    return new ApiRefusal(res.status, body.error, message, typeof body.field === 'string' ? body.field : undefined, body);
  }

  async json<T = any>(method: string, path: string, options: { query?: Query; json?: unknown; form?: FormData } = {}): Promise<T> {
    const res = await this.send(method, path, options);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiRefusal(res.status, 'http_error', `${method} ${this.url(path)}: the answer is not JSON (is ${this.credentials.url} a Sheaf server?)`);
    }
  }

  get<T = any>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  /** Every page of a collection (the envelope's links.next), as one array of its `key` items. */
  async all<T = any>(path: string, key: string, query: Query = {}): Promise<T[]> {
    const items: T[] = [];
    let page: any = await this.get(path, { per_page: 2000, ...query });
    for (;;) {
      items.push(...(page[key] as T[]));
      const next = page.links?.next as string | null | undefined;
      if (!next) return items;
      page = await this.json('GET', next);
    }
  }
}
