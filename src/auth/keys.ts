import { createHash, randomBytes } from 'node:crypto';
import type { CredentialKind } from '../db/types.ts';

/**
 * API keys are 256 random bits behind a readable prefix that says what they are:
 * `sheaf_fa_` full-access integration keys, `sheaf_ps_` personal read-only sync keys.
 * Only the SHA-256 of the whole key is stored: the secret has 256 bits of entropy,
 * so a slow password hash would add latency to every request and no safety.
 */
const PREFIX: Record<CredentialKind, string> = { integration: 'sheaf_fa_', personal: 'sheaf_ps_' };
const KEY_PATTERN = /^sheaf_(fa|ps)_[A-Za-z0-9_-]{43}$/;

export function generateKey(kind: CredentialKind) {
  const secret = `${PREFIX[kind]}${randomBytes(32).toString('base64url')}`;
  return { secret, hash: hashKey(secret), displayPrefix: secret.slice(0, PREFIX[kind].length + 6) };
}

export function hashKey(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function looksLikeKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

export function isApiKeyToken(token: string): boolean {
  return token.startsWith('sheaf_');
}
