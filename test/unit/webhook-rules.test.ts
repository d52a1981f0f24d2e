import { describe, expect, it } from 'vitest';
import { isPublicAddress, privateAddressOf } from '../../src/modules/integrations/webhooks/address.ts';
import { presentData } from '../../src/modules/integrations/webhooks/presenter.ts';
import { MAX_ATTEMPTS, messageId, normalizedEvents, retryAfter, RETRY_DELAYS_MS, urlProblem } from '../../src/modules/integrations/webhooks/rules.ts';

describe('webhook URLs', () => {
  it('takes absolute http(s) URLs without credentials', () => {
    expect(urlProblem('https://hooks.example.com/sheaf?x=1')).toBeNull();
    expect(urlProblem('http://example.com:8080')).toBeNull();
    expect(urlProblem('ftp://example.com/x')).toEqual({ refusal: 'scheme', message: expect.stringMatching(/http or https URL, not ftp/) });
    expect(urlProblem('javascript:alert(1)')).toEqual({ refusal: 'scheme', message: expect.stringMatching(/not javascript/) });
    expect(urlProblem('/relative')).toEqual({ refusal: 'not_absolute', message: expect.stringMatching(/absolute/) });
    expect(urlProblem('https://user:pw@example.com/')).toEqual({ refusal: 'credentials', message: expect.stringMatching(/user name or password/) });
  });

  it('counts only public unicast addresses as public', () => {
    for (const ip of ['8.8.8.8', '2a00:1450:4001::1', '93.184.216.34']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1', '255.255.255.255', 'nonsense']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('checks a literal host as it is and a name by what it resolves to', async () => {
    const resolve = async (host: string) => (host === 'rebind.test' ? [{ address: '8.8.8.8', family: 4 }, { address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]);
    expect(await privateAddressOf('127.0.0.1', resolve)).toBe('127.0.0.1');
    expect(await privateAddressOf('[::1]', resolve)).toBe('::1');
    expect(await privateAddressOf('rebind.test', resolve)).toBe('127.0.0.1');
    expect(await privateAddressOf('example.com', resolve)).toBeNull();
    // A name that does not resolve is not refused when saved (the delivery fails and is retried).
    expect(await privateAddressOf('nowhere.invalid', async () => Promise.reject(new Error('ENOTFOUND')))).toBeNull();
    expect(await privateAddressOf('localhost')).toMatch(/^(127\.|::1)/);
  });
});

describe('event kinds, retries and ids', () => {
  it('keeps known kinds once, in their order', () => {
    expect(normalizedEvents(['timer.stopped', 'time_entry.created', 'timer.stopped', 'nope'])).toEqual(['time_entry.created', 'timer.stopped']);
  });

  it('retries for more than a day, then gives up', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    let at = start;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) at = retryAfter(attempt, at)!;
    expect(at.getTime() - start.getTime()).toBe(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    expect(at.getTime() - start.getTime()).toBeGreaterThan(24 * 3_600_000);
    expect(retryAfter(MAX_ATTEMPTS, at)).toBeNull();
    expect(retryAfter(1, start)!.getTime() - start.getTime()).toBe(5_000);
  });

  it('names a delivery msg_ and its id without dashes', () => {
    expect(messageId('0192f0c4-1a2b-7c3d-8e4f-5a6b7c8d9e0f')).toBe('msg_0192f0c41a2b7c3d8e4f5a6b7c8d9e0f');
  });

  it('cuts the stored row to the named fields, numbers and money as the API gives them', () => {
    const data = presentData('time_entry', {
      id: 'e',
      company_id: 'w',
      hours_entered: '1.50',
      duration_seconds: '5400',
      timer_started_at: null,
      billable_rate: '120.00',
      notes: 'n',
      created_at: '2026-01-01T10:00:00.5+01:00',
      metadata: { secret: 1 },
    });
    expect(data).toEqual({ id: 'e', hours: 1.5, billable_rate: '120.00', notes: 'n', timer_started_at: null, created_at: '2026-01-01T09:00:00.500Z' });
    expect(presentData('approval', { user_id: 'u', time_entry_count: '3', expense_count: '0', reason: null, company_id: 'w' })).toEqual({
      user_id: 'u',
      time_entry_count: 3,
      expense_count: 0,
      reason: null,
    });
  });
});
