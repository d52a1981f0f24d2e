import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { Agent, interceptors, request } from 'undici';

/**
 * How `sheaf backup pull` sends its GETs: undici's request API over one
 * keep-alive agent, rather than the global fetch. A pull is thousands of
 * requests for pages of a few hundred KiB; fetch copies every chunk of a body
 * into a new array for its web stream and builds its Headers and Response
 * machinery per request, which cost the client more CPU than the rest of the
 * pull and churned enough memory to make its RSS swing by 20 MiB (measured in
 * docs/decisions.md, "Hot paths: the backup pull's client"). request hands the
 * socket's chunks over as they are.
 *
 * What fetch did for the pull, this does too: redirects are followed (at most
 * 5, the credentials dropped when the origin changes, by undici's redirect
 * interceptor), and a compressed body (offered by the caller's
 * Accept-Encoding) is inflated. The timeouts are undici's, as fetch's were
 * (300 s for the headers and between body chunks). Errors are undici's and
 * Node's own, with the same `code`s that fetch's carried as its `cause`.
 */

/** What the pull reads of a response: a fetch Response has it, and so does what `get` returns. */
export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: AsyncIterable<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
}

export type HttpGet = (url: string, headers: Record<string, string>) => Promise<HttpResponse>;

/** The encodings `get` inflates, for an Accept-Encoding header. */
export const ACCEPTED_ENCODINGS = 'br, gzip';

const MAX_REDIRECTIONS = 5;

let dispatcher: ReturnType<Agent['compose']> | undefined;

function inflated(body: Readable, encoding: string | undefined): Readable {
  const inflate = encoding === 'br' ? createBrotliDecompress() : encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : null;
  if (!inflate) return body;
  // A corrupt or cut-off body errors the inflater, which its reader then sees.
  return pipeline(body, inflate, () => undefined);
}

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A GET by undici's request API (see above). */
export const get: HttpGet = async (url, headers) => {
  dispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));
  const res = await request(url, { method: 'GET', headers, dispatcher });
  const header = (name: string) => {
    const value = res.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  const encoding = header('content-encoding')?.trim().toLowerCase();
  const body = inflated(res.body, encoding);
  return {
    status: res.statusCode,
    statusText: res.statusText ?? '',
    ok: res.statusCode >= 200 && res.statusCode < 300,
    headers: { get: header },
    body,
    arrayBuffer: async () => {
      const bytes = await bytesOf(body);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
    text: async () => (await bytesOf(body)).toString('utf8'),
  };
};

/** A fetch function (the tests' seam) as an HttpGet. */
export const viaFetch =
  (fetchImpl: typeof fetch): HttpGet =>
  (url, headers) =>
    fetchImpl(url, { headers }) as Promise<HttpResponse>;
