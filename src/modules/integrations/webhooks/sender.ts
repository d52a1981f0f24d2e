import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, literalAddress, isPublicAddress, type Resolver } from './address.ts';
import { REQUEST_TIMEOUT_MS } from './rules.ts';

/**
 * One signed POST to an endpoint, as the Standard Webhooks specification has it: the
 * headers webhook-id, webhook-timestamp (the attempt's, in seconds) and webhook-signature
 * (`v1,` and the HMAC-SHA256 of `id.timestamp.body`, made by the `standardwebhooks`
 * package; during a rotation's overlap a second signature with the previous secret).
 * Redirects are not followed: a 3xx is a failure, like any answer but 2xx.
 */

export interface Attempt {
  url: string;
  webhookId: string;
  body: string;
  /** The secrets that sign, current first. */
  secrets: string[];
  now: Date;
  allowPrivate: boolean;
  resolve?: Resolver;
  /** The deadline for the answer's status (default REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

// Kept-alive connections: a receiver getting many events is not made to accept a connection for each.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };
const signers = new Map<string, Webhook>();

function signer(secret: string): Webhook {
  let s = signers.get(secret);
  if (!s) {
    if (signers.size > 1000) signers.clear();
    s = new Webhook(secret);
    signers.set(secret, s);
  }
  return s;
}

/** The webhook-signature header's value: one `v1,…` per secret, separated by spaces. */
export function signatures(secrets: string[], webhookId: string, at: Date, body: string): string {
  return secrets.map((secret) => signer(secret).sign(webhookId, at, body)).join(' ');
}

const short = (message: string) => (message.length > 500 ? `${message.slice(0, 497)}...` : message);

export function sendAttempt(a: Attempt): Promise<AttemptResult> {
  const url = new URL(a.url);
  const literal = literalAddress(url.hostname);
  // A literal address is connected to without a lookup: checked here instead.
  if (!a.allowPrivate && literal && !isPublicAddress(literal)) {
    return Promise.resolve({ ok: false, status: null, error: `${literal} is a private, loopback or link-local address (set WEBHOOK_ALLOW_PRIVATE=true to allow it)` });
  }
  const body = Buffer.from(a.body);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: AttemptResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    // A deadline for the whole answer, not the socket's idle timeout: a receiver that trickles a
    // byte every few seconds would otherwise hold the attempt (and its lane) for minutes.
    const timeoutMs = a.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const req = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        ...(a.allowPrivate ? {} : { lookup: guardedLookup(a.resolve) as never }),
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': 'Sheaf-Webhooks/1',
          'webhook-id': a.webhookId,
          'webhook-timestamp': String(Math.floor(a.now.getTime() / 1000)),
          'webhook-signature': signatures(a.secrets, a.webhookId, a.now, a.body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The status is the answer: it is judged now. The body is not kept; it is read to free the
        // connection for the next event, and the deadline still ends one that never finishes.
        finish({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
        res.resume();
        res.on('end', () => clearTimeout(deadline));
        res.on('error', () => clearTimeout(deadline));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      finish({ ok: false, status: null, error: short(err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message) });
    });
    req.end(body);
  });
}
