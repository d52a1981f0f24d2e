/** The API's error body (src/errors.ts): a code, its description, a sentence, and sometimes the field at fault. */
export interface ErrorBody {
  error: string;
  error_description?: string;
  message?: string;
  field?: string;
  [extra: string]: unknown;
}

/** A call that did not succeed: its status, the error body when there was one, and the response headers. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;
  readonly headers: Headers;
  constructor(status: number, body: ErrorBody | undefined, headers: Headers) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
  get code(): string | undefined {
    return this.body?.error;
  }
  /** Seconds to wait before retrying (Retry-After), when the server said. */
  get retryAfter(): number | undefined {
    const value = Number(this.headers.get('retry-after') ?? this.body?.retry_after);
    return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
  }
}

/**
 * A call that never got an answer (offline, server down, connection reset). `replayable`:
 * sending the very same request again cannot do the work twice (a read, a PUT or DELETE,
 * or a create with an Idempotency-Key, which the server answers once), so it may be retried.
 */
export class NetworkError extends Error {
  readonly replayable: boolean;
  constructor(cause: unknown, replayable = false) {
    super('network', { cause });
    this.name = 'NetworkError';
    this.replayable = replayable;
  }
}

/** Whether a request may be sent again after it got no answer (see NetworkError). */
export function isReplayable(request: Pick<Request, 'method' | 'headers'>): boolean {
  return ['GET', 'HEAD', 'PUT', 'DELETE'].includes(request.method) || request.headers.has('Idempotency-Key');
}

/**
 * openapi-fetch resolves to {data, error, response} and never throws; TanStack Query
 * needs a throw. Turns every failure into an HttpError or a NetworkError.
 */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    // The client's onError (client.ts) already made it a NetworkError that knows its request.
    throw err instanceof NetworkError ? err : new NetworkError(err);
  }
  const { data, error, response } = result;
  if (error !== undefined || !response.ok) throw new HttpError(response.status, asErrorBody(error), response.headers);
  return data as T;
}

function asErrorBody(value: unknown): ErrorBody | undefined {
  return value && typeof value === 'object' && typeof (value as ErrorBody).error === 'string' ? (value as ErrorBody) : undefined;
}
