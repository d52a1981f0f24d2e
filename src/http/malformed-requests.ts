import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { sendError } from './errors.ts';

/**
 * Requests that never become a Fastify request: Node's HTTP parser refuses them
 * (malformed framing, a method it does not know, headers over the limit) and
 * reports them on the server's 'clientError' event, where Fastify's default
 * answers in its own body shape. These are answered here, on the socket, in the
 * API's error shape, and the connection is closed (the parser cannot resume
 * after an error). See docs/decisions.md, "Resilience: every error in the documented shape".
 */

/** The parser errors that are not a plain malformed request (400). */
const SPECIAL: Record<string, () => ApiError> = {
  HPE_HEADER_OVERFLOW: () =>
    new ApiError('headers_too_large', `The request line and headers are larger than the ${maxHeaderSize / 1024} KiB limit.`),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: () => new ApiError('payload_too_large', 'The chunk extensions of the request body are too large.'),
  ERR_HTTP_REQUEST_TIMEOUT: () => new ApiError('request_timeout', 'The request was not received in time.'),
};

const METHOD_TOKEN = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) /;

/**
 * An unknown method (lower-case `get`, `FOO`) is 501, as RFC 9110 asks of a
 * method the server does not recognize (methods are case-sensitive); bytes that
 * do not even start with a method token are a malformed request (400). The
 * method is read from the start of the line the parser stopped in (earlier
 * pipelined requests may precede it in the packet).
 */
function unknownMethod(err: ConnectionError): ApiError | null {
  const rawPacket: unknown = err.rawPacket; // typed as JSON by Fastify, it is the Buffer the parser read
  if (!Buffer.isBuffer(rawPacket)) return null;
  const lineStart = rawPacket.lastIndexOf(0x0a, Math.max(0, err.bytesParsed - 1)) + 1;
  const method = rawPacket.subarray(lineStart, lineStart + 40).toString('latin1').match(METHOD_TOKEN)?.[1];
  if (!method) return null;
  return new ApiError('not_implemented', `The method '${method}' is not supported (methods are case-sensitive: GET, POST, PATCH, DELETE).`);
}

/** What the client is told: the special cases above, else a 400 with the parser's reason (fixed texts of llhttp, no client bytes). */
function answerFor(err: ConnectionError): ApiError {
  const special = err.code === 'HPE_INVALID_METHOD' ? unknownMethod(err) : SPECIAL[err.code]?.();
  if (special) return special;
  const reason = (err as { reason?: unknown }).reason;
  return new ApiError('invalid_request', `The request is not valid HTTP/1.1${typeof reason === 'string' && reason ? ` (${reason})` : ''}.`);
}

/** The raw response: the error body with the headers every response carries, then the connection closes. */
function rawErrorResponse(err: ApiError, features: string): string {
  const body = JSON.stringify(err.body());
  return (
    `HTTP/1.1 ${err.statusCode} ${STATUS_CODES[err.statusCode] ?? 'Error'}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\n` +
    `X-Service-Features: ${features}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * What Node's server keeps on the socket (internal fields; Node's own handler reads
 * the first): the response being written, and the parser with the request it is reading.
 */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } | null };

/**
 * Answers at the right moment. A bad request head (or one after pipelined
 * requests) gets the answer once the responses before it have gone out (writing
 * now would land inside or ahead of them). A body cut by bad framing belongs to
 * a request already handed to the routes: the answer goes out only if that
 * request has none yet; if it has (a 401 before the body was read), no second
 * response, the connection just closes after it.
 */
function answerInTurn(socket: HttpSocket, response: string, inBodyOf: IncomingMessage | null) {
  if (socket.destroyed) return;
  const pending = socket._httpMessage;
  if (pending && pending.req !== inBodyOf) {
    pending.once('close', () => answerInTurn(socket, response, inBodyOf));
  } else if (inBodyOf && pending?.headersSent) {
    pending.once('close', () => socket.destroy());
  } else if (inBodyOf && !pending) {
    socket.destroy();
  } else if (socket.writable) {
    socket.end(response, () => socket.destroy());
  } else {
    socket.destroy();
  }
}

/** Fastify's `clientErrorHandler`: called with the Fastify instance as `this`. */
export function answerClientError(this: FastifyInstance, err: ConnectionError, socket: Socket) {
  // A reset or closed connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = answerFor(err);
  // Not `err` itself: its rawPacket holds the request's bytes, Authorization header included.
  this.log.debug({ code: err.code, reason: (err as { reason?: unknown }).reason, status: answer.statusCode }, 'malformed request refused');
  const incoming = (socket as HttpSocket).parser?.incoming;
  answerInTurn(socket, rawErrorResponse(answer, this.features.header()), incoming && !incoming.complete ? incoming : null);
}

/**
 * An HTTP/1.1 request without a Host header is a 400 (RFC 9112 §3.2). Node's own
 * check answers it with an empty body, so it is turned off (`requireHostHeader:
 * false` in src/app.ts) and made here, in the API's shape.
 */
export function registerHostRequirement(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      reply.header('Connection', 'close');
      sendError(reply, new ApiError('invalid_request', 'An HTTP/1.1 request needs a Host header.'));
      return;
    }
    done();
  });
}

/**
 * A `CONNECT` request (a proxy tunnel) is no route's: Node hands it to the
 * server's 'connect' event and, with no listener, closes the socket without a
 * word. This listener answers 501 in the API's shape and closes the connection.
 */
export function registerConnectAnswer(app: FastifyInstance) {
  app.server.on('connect', (request: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    if (!socket.writable) return void socket.destroy();
    const answer = new ApiError('not_implemented', `The method '${request.method}' is not supported (methods are case-sensitive: GET, POST, PATCH, DELETE).`);
    app.log.debug({ method: request.method, status: answer.statusCode }, 'malformed request refused');
    socket.end(rawErrorResponse(answer, app.features.header()), () => socket.destroy());
  });
}

/**
 * The time a request's body may take to arrive, from the moment its headers did
 * (`REQUEST_BODY_TIMEOUT_MS`, default 30 s; 0 turns it off). Node's own bound is
 * `requestTimeout`, 300 s for the whole request and checked only every 30 s, so a
 * body announced with `Content-Length: 500` of which 17 bytes come, or a chunk
 * size of `fffffffffffffff`, held a connection and a request for five and a half
 * minutes without an answer. When the time is up: a request not yet answered gets
 * 408 `request_timeout` (with `Connection: close`), one already answered (a 401
 * before the body was read) just loses its connection.
 *
 * A callback hook that only reads two headers for requests without a body (GET),
 * so the hot path gains no timer and no await.
 */
export function registerBodyTimeout(app: FastifyInstance, ms: number) {
  if (ms <= 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    const { headers, raw } = request;
    const length = headers['content-length'];
    if ((length === undefined || length === '0') && headers['transfer-encoding'] === undefined) return done();
    if (raw.complete) return done();
    const timer = setTimeout(() => {
      // An injected request (tests, light-my-request) has a stand-in socket without destroy().
      const socket = raw.socket as Partial<typeof raw.socket> | undefined;
      const drop = () => void socket?.destroy?.();
      if (reply.sent || reply.raw.headersSent) return drop();
      reply.header('Connection', 'close');
      reply.raw.once('finish', drop);
      sendError(reply, new ApiError('request_timeout', `The request body did not arrive within ${ms / 1000} seconds.`));
    }, ms);
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    done();
  });
}
