import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { curlUsersMe, firstStartMessage, signInLink, type FirstStart } from '../bootstrap.ts';
import type { Output } from './output.ts';

/**
 * Where the one-time key of the first start goes. On a terminal it is printed,
 * as before. Otherwise stdout is pino's log stream (a process manager, a pipe,
 * a container log), and a key printed there would be kept in the logs: it is
 * written once to a file in DATA_DIR that only this user can read, and the log
 * says where that file is, never the key.
 */

export const CREDENTIALS_FILE = 'first-start-credentials.txt';

/** The part of a pino logger used here. */
export interface FirstStartLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface FirstStartDelivery {
  first: FirstStart;
  /** The server's base URL, for the curl line. */
  url: string;
  /** DATA_DIR of the embedded database (null: in memory, tests only). */
  dataDir: string | null;
  /** Whether stdout is a terminal. */
  tty: boolean;
  output: Output;
  log: FirstStartLog;
}

/** Creates `path` with mode 0600, failing if it exists (never overwrites, never widens an existing file's mode). */
async function writeExclusive(path: string, text: string) {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes the credentials file: `first-start-credentials.txt`, or, should an
 * earlier one still be there (DATA_DIR emptied but for it), a name with the
 * workspace id. Returns its absolute path.
 */
async function writeCredentials(dataDir: string, first: FirstStart, url: string): Promise<string> {
  const text = [
    `Written by the first start of sheaf serve on ${new Date().toISOString()}. Store the key, then delete this file.`,
    firstStartMessage(first, url),
  ].join('\n');
  const path = resolve(join(dataDir, CREDENTIALS_FILE));
  try {
    await writeExclusive(path, text);
    return path;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const other = resolve(join(dataDir, `first-start-credentials-${first.workspace_id}.txt`));
    await writeExclusive(other, text);
    return other;
  }
}

export async function deliverFirstStart({ first, url, dataDir, tty, output, log }: FirstStartDelivery): Promise<void> {
  if (tty || dataDir === null) {
    if (output.json) output.out(JSON.stringify({ event: 'first_start', ...first, sign_in_url: signInLink(url, first.sign_in_token), curl: curlUsersMe(url, first.workspace_id, first.key) }));
    else output.out(firstStartMessage(first, url));
    return;
  }
  // Named one by one, so a field added to FirstStart later is not printed by accident.
  const shown = { workspace_id: first.workspace_id, workspace_name: first.workspace_name, owner_email: first.owner_email, key_id: first.key_id };
  let path: string;
  try {
    path = await writeCredentials(dataDir, first, url);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const repair = `sheaf admin key create --workspace ${first.workspace_id} --user ${first.owner_email}`;
    log.error(
      { workspace_id: first.workspace_id, err: { code: e.code, message: e.message } },
      `first start: could not write the credentials file in ${dataDir}; the key is not shown: stop the server and run "${repair}"`,
    );
    if (!output.json) output.err(`sheaf: could not write the first start's key to ${dataDir} (${e.message}); stop the server and run: ${repair}`);
    return;
  }
  log.warn(
    { workspace_id: first.workspace_id, credentials_file: path },
    `first start: the new workspace's API key is in ${path} (readable by this user only); store it, then delete the file`,
  );
  if (output.json) output.out(JSON.stringify({ event: 'first_start', ...shown, credentials_file: path }));
  else {
    output.out(
      `First start: created the workspace "${first.workspace_name}" (${first.workspace_id}) with an owner (${first.owner_email}); ` +
        `its full-access API key is in ${path} (readable by this user only): store it, then delete the file.`,
    );
  }
}
