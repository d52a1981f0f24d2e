import type { SecretKeys } from '../auth/secret-box.ts';
import type { ParseArgsConfig } from 'node:util';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import type { Output } from './output.ts';

export type Values = Record<string, string | undefined>;
export type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * One `sheaf` command. `parse` checks the options without touching the database,
 * so bad input fails fast and never takes the embedded database's lock; `run`
 * does the work.
 */
export interface Command<T = unknown> {
  /** Words after `sheaf` that name the command, e.g. `admin user create`. */
  name: string;
  /** The options part of its usage line, e.g. `--workspace ID --email E`. */
  usage: string;
  summary: string;
  options: Options;
  /** Names given to positional arguments, in order (default none: a positional is a usage error). */
  positionals?: string[];
  /** The values the first positional may take, for completion (e.g. the shells of `completion`). */
  positionalValues?: readonly string[];
  parse(values: Values): T;
  run(
    ctx: { config: Config; output: Output; env?: Record<string, string | undefined>; openDatabase?: (config: Config) => Promise<Database> },
    input: T,
  ): Promise<number>;
}

/** What an admin command runs with: the (migrated) database. */
export interface AdminContext {
  db: Kysely<DB>;
  output: Output;
  clock: Clock;
  /** The address people reach the server at (PUBLIC_URL, else the configured host and port), for links in e-mails. */
  baseUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE: webhook endpoints may point at private addresses. */
  webhookAllowPrivate: boolean;
  /** SHEAF_SECRET_KEY and SHEAF_SECRET_KEY_PREVIOUS (src/auth/secret-box.ts). */
  secretKeys: SecretKeys;
}

export const str = { type: 'string' } as const;
