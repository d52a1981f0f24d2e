import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets Sheaf must read back (TOTP seeds; later OIDC client secrets) are kept encrypted
 * at rest with AES-256-GCM (node:crypto, OpenSSL's), under a key derived from
 * SHEAF_SECRET_KEY. A sealed value names the key it was sealed with, so a rotated key
 * (the old one moved to SHEAF_SECRET_KEY_PREVIOUS) still opens older values until
 * `sheaf admin secret-key rotate` has sealed them all anew (docs/decisions.md, "Secrets at rest").
 *
 * Form: `v1.<key id>.<12-byte IV>.<ciphertext and 16-byte tag>`, base64url parts. The key id is
 * 8 hex digits of the derived key's SHA-256: enough to choose among a handful of keys, and
 * nothing about the key itself.
 */
export const MIN_SECRET_KEY_LENGTH = 32;

interface DerivedKey {
  id: string;
  key: Buffer;
}

const derived = new Map<string, DerivedKey>();

function derive(secret: string): DerivedKey {
  let d = derived.get(secret);
  if (!d) {
    const key = Buffer.from(hkdfSync('sha256', secret, 'sheaf', 'secret-box v1', 32));
    d = { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
    derived.set(secret, d);
  }
  return d;
}

/** The keys in force: the first seals, all open. Empty when the server has none. */
export type SecretKeys = readonly string[];

export class SecretKeyMissing extends Error {
  constructor() {
    super('SHEAF_SECRET_KEY is not set');
  }
}

export function sealSecret(keys: SecretKeys, plain: string): string {
  if (keys.length === 0) throw new SecretKeyMissing();
  const { id, key } = derive(keys[0]!);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${id}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The plain value; throws when no key in force sealed it or it was altered. */
export function openSecret(keys: SecretKeys, sealed: string): string {
  const [version, id, iv, body] = sealed.split('.');
  if (version !== 'v1' || !id || !iv || !body) throw new Error('not a sealed secret');
  const match = keys.map(derive).find((k) => k.id === id);
  if (!match) throw new Error(`no key in SHEAF_SECRET_KEY or SHEAF_SECRET_KEY_PREVIOUS sealed this secret (key ${id})`);
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', match.key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
}

/** Whether a sealed value was sealed with the current key (the rotation skips those). */
export const sealedWithCurrentKey = (keys: SecretKeys, sealed: string) => keys.length > 0 && sealed.split('.')[1] === derive(keys[0]!).id;

/** A new random key, as `sheaf` writes one for an embedded database. */
export const newSecretKey = () => randomBytes(32).toString('base64url');
