import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { badRequest } from '../errors.ts';

/**
 * Passwords are hashed with Node's scrypt (memory-hard), at OWASP's recommended
 * parameters N=2^17, r=8, p=1 (128 MiB, about 0.4 s on one core here; it runs on
 * libuv's thread pool, so the event loop keeps serving). The parameters travel in
 * the stored string, `scrypt$N$r$p$salt$hash`, so they can be raised later
 * without invalidating existing hashes.
 *
 * PASSWORD_SCRYPT_LOG2N lowers N for test runs only (vitest.config.ts and the browser
 * tests set 10): a test suite signs in hundreds of times, and at 0.4 s a sign-in the
 * hashing was most of its time. A hash made so verifies in production too (its N is in
 * the string), which is why it is read here and nowhere near the configuration a
 * deployment sets: the README does not offer it.
 */
export function scryptParams(log2N: string | undefined): { N: number; r: number; p: number } {
  if (log2N === undefined || log2N === '') return { N: 2 ** 17, r: 8, p: 1 };
  if (!/^\d+$/.test(log2N) || Number(log2N) < 10 || Number(log2N) > 20) throw new Error(`PASSWORD_SCRYPT_LOG2N must be 10 to 20, not ${log2N}`);
  return { N: 2 ** Number(log2N), r: 8, p: 1 };
}

const PARAMS = scryptParams(process.env.PASSWORD_SCRYPT_LOG2N);
const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Throws a 400 naming `field` unless the password is acceptable (length only: NIST 800-63B). */
export function assertAcceptablePassword(password: unknown, field = 'password'): asserts password is string {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw badRequest(`The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`, { field });
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether the password matches the stored hash. A missing hash still costs one
 * derivation, so the answer's timing does not tell which e-mail addresses exist.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') {
    await derive(password, DUMMY_SALT, PARAMS);
    return false;
  }
  const [, N, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const DUMMY_SALT = randomBytes(16);
