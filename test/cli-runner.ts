import { execFile, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.ts';
import type { Config } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { openConfiguredDatabase } from '../src/server.ts';

/**
 * Running `sheaf` commands in tests (see test/README.md).
 *
 * runCli calls the CLI's main() in this process, with stdout, stderr and the
 * exit code captured exactly as a process would give them. Pass a
 * SharedDatabase's `open` and every command of a file runs on one database that
 * is opened once, instead of starting a database (PGlite: the WebAssembly
 * PostgreSQL, ~1-2 s of CPU) per command. spawnCli runs the real
 * `node bin/sheaf.js` in its own process: only for what needs a process
 * (serve and its signals, the first start, the embedded database's lock held
 * by another process, the installed command itself).
 */

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export type CliEnv = Record<string, string | undefined>;

export interface CliResult {
  code: number;
  /** Everything written to stdout (each line ends with a newline, as from the process). */
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs that succeeded). */
  json: any;
  /** stderr parsed as JSON (for --json runs that failed). */
  error: any;
}

export const tryParse = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const result = (code: number, stdout: string, stderr: string): CliResult => ({
  code,
  stdout,
  stderr,
  json: tryParse(stdout),
  error: tryParse(stderr),
});

/** `sheaf ...args` in this process. */
export async function runCli(args: string[], options: { env: CliEnv; openDatabase?: (config: Config) => Promise<Database> }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env: options.env,
    out: (t) => (stdout += t + '\n'),
    err: (t) => (stderr += t + '\n'),
    openDatabase: options.openDatabase,
  });
  return result(code, stdout, stderr);
}

/**
 * How the tests start `node bin/sheaf.js`: WebAssembly on V8's baseline compiler
 * only, as in the test workers (vitest.config.ts). A short-lived process does
 * not live long enough for the optimizing tier to pay for itself, and the
 * embedded database then starts with about half the CPU.
 */
export const SHEAF_BIN = ['--liftoff-only', 'bin/sheaf.js'];

/** How the tests start a TypeScript fixture (`node bin/run-ts.js file.ts`), on the same compiler as SHEAF_BIN. */
export const RUN_TS = ['--liftoff-only', 'bin/run-ts.js'];

/**
 * The URL a `sheaf serve --json` child process says it listens on (its `listening` event on
 * stdout); rejects after `timeoutMs`, or when the process exits first, with what it wrote to stderr.
 */
export function listeningUrl(child: ChildProcess, exited: Promise<void>, timeoutMs = 30_000): Promise<string> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not listen within ${timeoutMs / 1000} s:\n${stderr}`)), timeoutMs);
    void exited.then(() => reject(new Error(`serve exited before listening:\n${stderr}`)));
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (const line of buffered.split('\n')) {
        const event = tryParse(line);
        if (event?.event === 'listening') {
          clearTimeout(timer);
          resolve(event.url);
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
  });
}

/** `node bin/sheaf.js ...args` in its own process. */
export function spawnCli(args: string[], env: CliEnv): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [...SHEAF_BIN, ...args], { cwd: ROOT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolvePromise(result(code, stdout, stderr));
    });
  });
}

/**
 * One database for many in-process commands. It is opened (as the CLI would:
 * the configured embedded directory or PostgreSQL schema, not migrated) by the
 * first command that needs a database, so commands that never open one still
 * create nothing; the commands' close() leaves it open. close() really closes
 * it (releasing the embedded database's lock, e.g. before a `sheaf serve`
 * child process opens the same directory); the next command opens it again.
 * A failed open (the lock held by another process) is not kept.
 */
export class SharedDatabase {
  private opened: Promise<Database> | undefined;

  open = async (config: Config): Promise<Database> => {
    const opening = (this.opened ??= openConfiguredDatabase(config));
    let database: Database;
    try {
      database = await opening;
    } catch (err) {
      if (this.opened === opening) this.opened = undefined;
      throw err;
    }
    return { ...database, close: async () => {} };
  };

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (opened) await (await opened.catch(() => undefined))?.close();
  }
}
