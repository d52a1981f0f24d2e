import { describe, expect, it } from 'vitest';
import { domainOf, messageIdFor } from '../../src/outbox/mailer.ts';
import { afterFailure, MAX_DELAY_MS, MIN_ATTEMPTS, RETRY_FOR_MS, retryDelayMs } from '../../src/outbox/retry-policy.ts';

/**
 * The outbox's retry policy (src/outbox/retry-policy.ts) and the Message-ID
 * every attempt at one message carries (src/outbox/mailer.ts). Pure rules: no
 * database; the worker applying them is tested in test/outbox-delivery.test.ts.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the retry schedule', () => {
  it('waits 1, 2, 4 … minutes, then at most six hours', () => {
    const minutes = Array.from({ length: 12 }, (_, i) => retryDelayMs(i + 1) / MINUTE);
    expect(minutes).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360, 360]);
    expect(retryDelayMs(1000)).toBe(MAX_DELAY_MS);
    expect(MAX_DELAY_MS).toBe(6 * HOUR);
  });

  it('adds up to at least three days before the last attempt, and no attempt more than needed', () => {
    expect(RETRY_FOR_MS).toBe(3 * DAY);
    const waited = (attempts: number) => Array.from({ length: attempts - 1 }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(MIN_ATTEMPTS).toBe(21);
    expect(waited(MIN_ATTEMPTS)).toBeGreaterThanOrEqual(3 * DAY);
    expect(waited(MIN_ATTEMPTS - 1)).toBeLessThan(3 * DAY);
  });

  it('keeps a message pending through every failure of three days of retries and marks it failed only after', () => {
    const first = new Date('2026-05-01T08:00:00Z');
    let now = first;
    const outcomes = [];
    for (let attempts = 1; ; attempts++) {
      const next = afterFailure(attempts, first, now);
      outcomes.push(next.status);
      if (next.status === 'failed') break;
      expect(next.availableAt.getTime() - now.getTime()).toBe(retryDelayMs(attempts));
      now = next.availableAt; // the worker tries again as soon as it is due
    }
    expect(outcomes).toHaveLength(MIN_ATTEMPTS);
    expect(outcomes.slice(0, -1).every((s) => s === 'pending')).toBe(true);
    expect(now.getTime() - first.getTime()).toBeGreaterThanOrEqual(3 * DAY);
    expect(now.getTime() - first.getTime()).toBeLessThan(3 * DAY + MAX_DELAY_MS);
  });

  it('needs both: enough attempts and three days since the first', () => {
    const first = new Date('2026-05-01T08:00:00Z');
    // a worker that kept dying mid-send: many claims, five minutes apart, within two hours
    expect(afterFailure(MIN_ATTEMPTS + 5, first, new Date(first.getTime() + 2 * HOUR)).status).toBe('pending');
    // a server stopped for four days after the first attempt: the second failure is not the last
    const late = afterFailure(2, first, new Date(first.getTime() + 4 * DAY));
    expect(late).toEqual({ status: 'pending', availableAt: new Date(first.getTime() + 4 * DAY + 2 * MINUTE) });
    expect(afterFailure(MIN_ATTEMPTS - 1, first, new Date(first.getTime() + 10 * DAY)).status).toBe('pending');
    expect(afterFailure(MIN_ATTEMPTS, first, new Date(first.getTime() + 3 * DAY))).toEqual({ status: 'failed' });
    expect(afterFailure(MIN_ATTEMPTS, first, new Date(first.getTime() + 3 * DAY - 1)).status).toBe('pending');
  });
});

describe('the Message-ID', () => {
  const ref = { companyId: '01a204b2-b23b-7e09-b8c3-5cf187785cb7', outboxId: '01a204b3-1717-7afb-af24-e804a61c7e51' };

  it('is the outbox id and the workspace id at the From domain, the same on every call', () => {
    const id = messageIdFor(ref, 'Acme Billing <billing@Acme.test>');
    expect(id).toBe(`<${ref.outboxId}.${ref.companyId}@acme.test>`);
    expect(messageIdFor(ref, 'Acme Billing <billing@Acme.test>')).toBe(id);
    // RFC 5322 msg-id: "<" dot-atom-text "@" domain ">"
    expect(id).toMatch(/^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9.-]+>$/);
  });

  it('differs between messages and between workspaces', () => {
    const other = messageIdFor({ ...ref, outboxId: '01a204b3-1717-7afb-af24-e804a61c7e52' }, 'a@b.test');
    expect(other).not.toBe(messageIdFor(ref, 'a@b.test'));
    expect(messageIdFor({ ...ref, companyId: '01a204b2-b23b-7e09-b8c3-5cf187785cb8' }, 'a@b.test')).not.toBe(messageIdFor(ref, 'a@b.test'));
  });

  it('takes the domain of a bare address or Name <address>, else localhost', () => {
    expect(domainOf('sheaf@mail.example.com')).toBe('mail.example.com');
    expect(domainOf('"Billing, Acme" <billing@acme.test> ')).toBe('acme.test');
    expect(domainOf('Sheaf <sheaf@localhost>')).toBe('localhost');
    expect(domainOf('no address')).toBe('localhost');
    expect(domainOf('bad <x@-bad-.test>')).toBe('localhost');
    expect(messageIdFor(ref)).toBe(`<${ref.outboxId}.${ref.companyId}@localhost>`);
  });
});
