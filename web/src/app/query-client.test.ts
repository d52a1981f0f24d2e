import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from '../api/call.ts';
import { createQueryClient } from './query-client.ts';

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
