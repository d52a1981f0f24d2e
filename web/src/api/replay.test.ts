import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../app/query-client.ts';
import { HttpError, isReplayable, NetworkError } from './call.ts';

const request = (method: string, headers: Record<string, string> = {}) => ({ method, headers: new Headers(headers) });

describe('which requests may be sent again after no answer', () => {
  it('reads, PUTs, DELETEs and creates with an Idempotency-Key', () => {
    expect(isReplayable(request('GET'))).toBe(true);
    expect(isReplayable(request('PUT'))).toBe(true);
    expect(isReplayable(request('DELETE'))).toBe(true);
    expect(isReplayable(request('POST', { 'Idempotency-Key': 'k' }))).toBe(true);
    expect(isReplayable(request('PATCH', { 'idempotency-key': 'k' }))).toBe(true);
  });
  it('not a POST or PATCH without a key: it may have done its work before the connection dropped', () => {
    expect(isReplayable(request('POST'))).toBe(false);
    expect(isReplayable(request('PATCH', { 'If-Match': '"x"' }))).toBe(false);
  });
});

describe('the mutation retry policy', () => {
  const retry = createQueryClient().getDefaultOptions().mutations!.retry as (failures: number, error: unknown) => boolean;
  it('retries a replayable request that got no answer, three times', () => {
    const lost = new NetworkError(new TypeError('Failed to fetch'), true);
    expect([0, 1, 2, 3].map((failures) => retry(failures, lost))).toEqual([true, true, true, false]);
  });
  it('never retries an answer, nor a request that may not be replayed', () => {
    expect(retry(0, new NetworkError(new TypeError('Failed to fetch'), false))).toBe(false);
    expect(retry(0, new HttpError(503, undefined, new Headers()))).toBe(false);
    expect(retry(0, new HttpError(409, { error: 'conflict' }, new Headers()))).toBe(false);
  });
});
