import { createRemoteJWKSet, importSPKI, jwtVerify, type CryptoKey, type JWTPayload, type JWTVerifyGetKey } from 'jose';

export interface JwtConfig {
  /** JWKS endpoint of the identity provider. */
  jwksUrl?: string;
  /** Or a PEM public key (SPKI). */
  publicKey?: string;
  algorithms?: string[];
  issuer: string;
  audience: string;
}

export interface JwtVerifier {
  verify(token: string): Promise<JWTPayload>;
}

/** Verifies identity-provider tokens with `jose`: signature, issuer, audience and expiry. */
export function createJwtVerifier(config: JwtConfig): JwtVerifier {
  const algorithms = config.algorithms ?? ['RS256', 'ES256', 'EdDSA'];
  let key: Promise<CryptoKey> | JWTVerifyGetKey;
  if (config.jwksUrl) key = createRemoteJWKSet(new URL(config.jwksUrl));
  else if (config.publicKey) key = importSPKI(config.publicKey, algorithms[0]);
  else throw new Error('JWT verification needs JWT_JWKS_URL or JWT_PUBLIC_KEY');
  return {
    async verify(token: string) {
      const options = { issuer: config.issuer, audience: config.audience, algorithms };
      const result =
        typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, await key, options);
      return result.payload;
    },
  };
}
