import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { migrate } from '../db/migrate.ts';
import { ApiError } from '../http/errors.ts';
import { openConfiguredDatabase, startServer } from '../server.ts';
import { adminCommands, type AdminCommand } from './admin.ts';
import { UsageError, type Output } from './output.ts';

export const USAGE = `Usage: sheaf <command> [options]

  serve [--port N] [--host H]          start the API (migrates first)
  migrate                               apply pending database migrations
  admin workspace create --name N [settings]
  admin workspace list
  admin workspace settings --workspace ID [--timezone Z] [--currency C] [--week-start D]
        [--rounding none|up|nearest|down] [--rounding-minutes N] [--approvals-enabled B]
        [--allow-past-timer-starts B] [--invoice-before-approval B] [--name N] [--address A]
  admin user create --workspace ID --email E --first-name F [--last-name L]
        [--role owner|administrator|manager|member|client] [--permissions a,b]
        [--type human|agent] [--contractor B] [--expected-weekly-hours H]
  admin user update --workspace ID --user ID|EMAIL [--first-name F] [--last-name L] [--role R]
        [--permissions a,b] [--contractor B] [--active B] [--expected-weekly-hours H]
  admin user deactivate --workspace ID --user ID|EMAIL
  admin user list --workspace ID
  admin teammate assign|unassign --workspace ID --manager ID|EMAIL --teammate ID|EMAIL
  admin teammate list --workspace ID [--manager ID|EMAIL]
  admin key create --workspace ID --user ID|EMAIL [--kind full|personal] [--name N]
  admin key rotate --workspace ID --key ID
  admin key revoke --workspace ID --key ID
  admin key list --workspace ID [--user ID|EMAIL]

Every command takes --json for machine-readable output. B is true or false.
The database is DATABASE_URL (PostgreSQL) or the embedded one in DATA_DIR (./data).`;


export interface CliIo {
  out?: (text: string) => void;
  err?: (text: string) => void;
  env?: Record<string, string | undefined>;
}

export async function main(argv: string[], io: CliIo = {}): Promise<number> {
  const output: Output = {
    json: argv.includes('--json'),
    out: io.out ?? ((t) => process.stdout.write(t + '\n')),
    err: io.err ?? ((t) => process.stderr.write(t + '\n')),
  };
  const args = argv.filter((a) => a !== '--json');
  try {
    const config = loadConfig(io.env ?? process.env);
    const [command, ...rest] = args;
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      output.out(USAGE);
      return command ? 0 : 2;
    }
    if (command === 'serve') return await serve(config, rest);
    if (command === 'migrate') return await withDatabase(config, async (db) => {
      const applied = await migrate(db);
      output.out(output.json ? JSON.stringify({ applied }) : applied.length ? `Applied ${applied.join(', ')}` : 'Up to date.');
      return 0;
    });
    if (command === 'admin') {
      const [area, action, ...options] = rest;
      const handler: AdminCommand | undefined = adminCommands[`${area} ${action}`];
      if (!handler) throw new UsageError(`Unknown command: sheaf admin ${[area, action].filter(Boolean).join(' ')}`);
      const values = parseOptions(handler.options, options);
      return await withDatabase(config, async (db) => {
        await migrate(db);
        await handler.run({ db, values, output, clock: config.clock });
        return 0;
      });
    }
    throw new UsageError(`Unknown command: ${command}`);
  } catch (err) {
    return report(err, output);
  }
}

function report(err: unknown, output: Output): number {
  if (err instanceof UsageError || err instanceof ApiError || isParseError(err)) {
    const message = (err as Error).message;
    const body = err instanceof ApiError ? err.body() : { error: 'usage', message };
    output.err(output.json ? JSON.stringify(body) : `sheaf: ${message}${err instanceof UsageError ? '\nRun "sheaf help" for usage.' : ''}`);
    return 2;
  }
  output.err(`sheaf: ${(err as Error)?.message ?? String(err)}`);
  return 1;
}

function isParseError(err: unknown) {
  return typeof err === 'object' && err !== null && String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS');
}

export function parseOptions(options: NonNullable<ParseArgsConfig['options']>, argv: string[]) {
  const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  if (positionals.length) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  return values as Record<string, string | undefined>;
}

async function withDatabase(config: Config, fn: (db: Kysely<DB>) => Promise<number>): Promise<number> {
  const database = await openConfiguredDatabase(config);
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

async function serve(config: Config, argv: string[]): Promise<number> {
  const values = parseOptions({ port: { type: 'string' }, host: { type: 'string' } }, argv);
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) throw new UsageError('--port must be a port number');
  const server = await startServer({ ...config, port: values.port ? Number(values.port) : config.port, host: values.host ?? config.host });
  await new Promise<void>((resolve) => {
    const stop = async () => {
      await server.close();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
