import { createRemoteJWKSet, errors, importSPKI, jwtVerify, type CryptoKey, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../clock.ts';

export interface JwtConfig {
  /** JWKS endpoint of the identity provider. */
  jwksUrl?: string;
  /** Or a PEM public key (SPKI). */
  publicKey?: string;
  algorithms?: string[];
  issuer: string;
  audience: string;
  /** How far in the future a token's `exp` may lie (JWT_MAX_LIFETIME_SECONDS, default 24 h). */
  maxLifetimeSeconds: number;
}

export interface JwtVerifier {
  verify(token: string): Promise<JWTPayload>;
}

/** How far `iat` may lie in the future: the identity provider's clock may run a little ahead of ours. */
const ISSUED_AT_SKEW_SECONDS = 60;

/** A token refused for a reason worth telling the caller (the message says which). */
export class TokenRefused extends Error {}

/**
 * Verifies identity-provider tokens with `jose`: signature, issuer, audience and
 * expiry, against the server's clock. Every token must expire (`exp` is required)
 * and expire soon: a token whose `exp` lies more than `maxLifetimeSeconds` ahead,
 * or that was issued in the future, is refused, so a leaked or mis-issued
 * long-lived token is not accepted for years.
 */
export function createJwtVerifier(config: JwtConfig, clock: Clock): JwtVerifier {
  const algorithms = config.algorithms ?? ['RS256', 'ES256', 'EdDSA'];
  let key: Promise<CryptoKey> | JWTVerifyGetKey;
  if (config.jwksUrl) key = createRemoteJWKSet(new URL(config.jwksUrl));
  else if (config.publicKey) key = importSPKI(config.publicKey, algorithms[0]);
  else throw new Error('JWT verification needs JWT_JWKS_URL or JWT_PUBLIC_KEY');
  return {
    async verify(token: string) {
      const currentDate = clock();
      const options = { issuer: config.issuer, audience: config.audience, algorithms, requiredClaims: ['exp'], currentDate };
      let payload: JWTPayload;
      try {
        const result =
          typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, await key, options);
        payload = result.payload;
      } catch (err) {
        if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'exp' && err.reason === 'missing') {
          throw new TokenRefused('The identity-provider token has no exp claim; only tokens that expire are accepted.');
        }
        throw err;
      }
      const now = Math.floor(currentDate.getTime() / 1000);
      // jose has checked that exp is a number in the future.
      if ((payload.exp as number) - now > config.maxLifetimeSeconds) {
        throw new TokenRefused(`The identity-provider token expires more than ${config.maxLifetimeSeconds} seconds from now.`);
      }
      if (typeof payload.iat === 'number' && payload.iat - now > ISSUED_AT_SKEW_SECONDS) {
        throw new TokenRefused('The identity-provider token is issued in the future (iat).');
      }
      return payload;
    },
  };
}
