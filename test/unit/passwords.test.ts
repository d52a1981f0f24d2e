import { describe, expect, it } from 'vitest';
import { hashPassword, scryptParams, verifyPassword } from '../../src/auth/passwords.ts';

describe('password hashing parameters', () => {
  it('are OWASP scrypt N=2^17, r=8, p=1 unless a test run lowers them', () => {
    expect(scryptParams(undefined)).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptParams('')).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptParams('10')).toEqual({ N: 1024, r: 8, p: 1 });
  });

  it.each(['9', '21', '12.5', 'abc', '-1', ' 12'])('refuse PASSWORD_SCRYPT_LOG2N=%j', (value) => {
    expect(() => scryptParams(value)).toThrow(/PASSWORD_SCRYPT_LOG2N/);
  });

  it('a hash keeps its own parameters, so one made at the production cost verifies under a test run', async () => {
    // This run's hashes use the lowered cost (vitest.config.ts); a stored production hash still verifies.
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    const production = 'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + (await derive17('correct horse battery'));
    expect(await verifyPassword('correct horse battery', production)).toBe(true);
    expect(await verifyPassword('wrong horse battery', production)).toBe(false);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
  });
});

async function derive17(password: string): Promise<string> {
  const { scryptSync } = await import('node:crypto');
  return scryptSync(password.normalize('NFKC'), Buffer.alloc(16), 32, { N: 131072, r: 8, p: 1, maxmem: 256 * 131072 * 8 }).toString('base64url');
}
