import { describe, expect, it } from 'vitest';
import { isReplayable } from './call.ts';

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
