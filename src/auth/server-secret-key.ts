import { readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { sampleSealedValues } from './sealed-columns.ts';
import { newSecretKey, openSecret, type SecretKeys } from './secret-box.ts';

/**
 * The key that seals secrets at rest (secret-box.ts), settled before the server listens.
 *
 * With SHEAF_SECRET_KEY it is that. Without it, an embedded database (`npm start` from a
 * fresh clone) gets a random key in DATA_DIR/secret-key, written once, readable by its
 * owner only, so two-factor sign-in works with no set-up; with PostgreSQL there is no such
 * fallback (several processes must share the key), and two-factor set-up says the key is missing.
 *
 * Either way, a key that cannot open the secrets already sealed stops the start with a message
 * rather than turning every sign-in of those people into an error.
 */
const embeddedKeyFile = (dataDir: string) => join(dataDir, 'secret-key');

/** The key an embedded database's first start wrote, if any (admin commands open its secrets with it). */
export function readEmbeddedSecretKey(dataDir: string): string | null {
  try {
    return readFileSync(embeddedKeyFile(dataDir), 'utf8').trim() || null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function settleSecretKeys(
  db: Kysely<DB>,
  keys: string[],
  embedded: { dataDir: string | null } | null,
): Promise<{ generated: string | null }> {
  let generated: string | null = null;
  let keyFile: string | null = null;
  if (keys.length === 0 && embedded?.dataDir) {
    keyFile = embeddedKeyFile(embedded.dataDir);
    const existing = readEmbeddedSecretKey(embedded.dataDir);
    if (existing) keys.push(existing);
    else {
      // A new key would open nothing sealed with the lost one, and, written, would make every later start fail the same way.
      const [sealed] = await sampleSealedValues(db);
      if (sealed) {
        throw new Error(`${keyFile} is missing, but ${sealed.what} are stored encrypted with the key it held: ${EMBEDDED_WAY_OUT(embedded.dataDir)}`);
      }
      const key = newSecretKey();
      await mkdir(embedded.dataDir, { recursive: true });
      await writeFile(keyFile, `${key}\n`, { mode: 0o600, flag: 'wx' });
      await chmod(keyFile, 0o600);
      keys.push(key);
      generated = keyFile;
    }
  }
  await assertKeysOpenSealedSecrets(db, keys, keyFile && embedded?.dataDir ? { keyFile, dataDir: embedded.dataDir } : null);
  return { generated };
}

/** What an embedded database's owner can do about a lost or replaced key file. */
const EMBEDDED_WAY_OUT = (dataDir: string) =>
  `put the file back from a copy of ${dataDir}, or reset what it sealed (\`sheaf admin two-factor reset\` for each person with two-factor codes; single sign-on: its client secret entered again) and start again.`;

async function assertKeysOpenSealedSecrets(db: Kysely<DB>, keys: SecretKeys, embedded: { keyFile: string; dataDir: string } | null) {
  for (const sample of await sampleSealedValues(db)) {
    if (keys.length === 0) {
      throw new Error(`${sample.what} are stored encrypted, but SHEAF_SECRET_KEY is not set: set it to the key they were sealed with.`);
    }
    try {
      openSecret(keys, sample.value);
    } catch (err) {
      throw new Error(
        embedded
          ? `${embedded.keyFile} cannot open the ${sample.what} stored (${(err as Error).message}): it is not the key they were sealed with; ${EMBEDDED_WAY_OUT(embedded.dataDir)}`
          : `SHEAF_SECRET_KEY cannot open the ${sample.what} stored (${(err as Error).message}); keep the old key in SHEAF_SECRET_KEY_PREVIOUS until \`sheaf admin secret-key rotate\` has run.`,
        { cause: err },
      );
    }
  }
}
