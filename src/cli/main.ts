import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { loadConfig, publicUrlOf, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { ApiError } from '../errors.ts';
import { catalogCommands } from './catalog-commands.ts';
import { expenseCommands } from './expense-commands.ts';
import { itemCategoryCommands } from './item-category-commands.ts';
import { invoiceCommands } from './invoice-commands.ts';
import { invoiceSettingsCommands } from './invoice-settings-commands.ts';
import { backupCommands } from './backup-commands.ts';
import { twoFactorCommands } from './two-factor-commands.ts';
import { readEmbeddedSecretKey } from '../auth/server-secret-key.ts';
import { approvalCommands } from './approval-commands.ts';
import { outboxCommands } from './outbox-commands.ts';
import { bankAccountCommands } from './bank-account-commands.ts';
import { recurringCommands } from './recurring-commands.ts';
import { reportCommands } from './report-commands.ts';
import { singleSignOnCommands } from './single-sign-on-commands.ts';
import { webhookCommands } from './webhook-commands.ts';
import { retainerCommands } from './retainer-commands.ts';
import { importCommands } from './import-commands.ts';
import { adminCommands, FIELD_OPTIONS, PERMISSION_NAMES, ROLE_NAMES, type AdminCommand } from './admin.ts';
import { str, type Command } from './command.ts';
import { helpRows, ServerRefusal, UsageError, wrapText, type Output } from './output.ts';
import { EXIT } from './exit-codes.ts';
import { parseOptions } from './parse-options.ts';
import { clientCommands } from './client/index.ts';
import { asksVersion, version, versionText } from './version.ts';

/**
 * The `sheaf` command line. Options are checked before anything heavy is loaded
 * or the database is opened, so bad input fails fast with exit code 2 and never
 * takes the embedded database's lock.
 */

/** Exit codes, documented in docs/cli.md (src/cli/exit-codes.ts, which the person commands share). */
export { EXIT };

/** How long `serve` waits for requests in flight after SIGINT/SIGTERM before it gives up. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

const serveCommand: Command<{ port?: number; host?: string }> = {
  name: 'serve',
  usage: '[--port N] [--host H]',
  summary: 'migrate, then start the API (PORT, HOST; --port 0 picks a free port)',
  options: { port: str, host: str },
  parse(values) {
    const port = values.port;
    if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65535)) {
      throw new UsageError(`--port must be a port number from 0 to 65535, not '${port}'.`);
    }
    if (values.host === '') throw new UsageError('--host needs a value.');
    return { port: port === undefined ? undefined : Number(port), host: values.host };
  },
  run: ({ config, output }, input) => serve({ ...config, port: input.port ?? config.port, host: input.host ?? config.host }, output),
};

const migrateCommand: Command<null> = {
  name: 'migrate',
  usage: '',
  summary: 'apply pending database migrations (serve and admin commands also do)',
  options: {},
  parse: () => null,
  run: ({ config, output, openDatabase }) =>
    withDatabase(config, openDatabase, false, async (db) => {
      const { migrate } = await import('../db/migrate.ts');
      const applied = await migrate(db);
      output.out(
        output.json
          ? JSON.stringify({ applied, up_to_date: true }, null, 2)
          : applied.length
            ? `Applied ${applied.join(', ')}. The database is up to date.`
            : 'The database is up to date.',
      );
    }),
};

/**
 * `sheaf mcp`: an MCP server on stdin/stdout for an agent (src/modules/integrations/mcp).
 * It never opens the database: it calls the API of SHEAF_URL with SHEAF_API_KEY and
 * SHEAF_WORKSPACE_ID, so it runs beside the server, or against a remote one.
 */
const mcpCommand: Command<null> = {
  name: 'mcp',
  usage: '',
  summary: 'serve MCP (Model Context Protocol) on stdin/stdout for an AI agent, talking to the API at SHEAF_URL with SHEAF_API_KEY and SHEAF_WORKSPACE_ID (never opens the database)',
  options: {},
  parse: () => null,
  async run({ env }) {
    const { runStdioServer, stdioSettings } = await import('../modules/integrations/mcp/index.ts');
    const settings = stdioSettings(env ?? process.env);
    if ('missing' in settings) throw new UsageError(settings.missing);
    await runStdioServer(settings, version());
    return EXIT.ok;
  },
};

/** The keys secrets at rest are sealed with: the environment's, else the embedded database's own (src/auth/server-secret-key.ts). */
function adminSecretKeys(config: Config): string[] {
  if (config.secretKeys.length > 0 || config.databaseUrl || !config.dataDir) return config.secretKeys;
  const key = readEmbeddedSecretKey(config.dataDir);
  return key ? [key] : [];
}

/** Turns an admin command into a command: it runs on the opened, migrated database, which is always closed after. */
export function fromAdmin<T>(c: AdminCommand<T>): Command<T> {
  return {
    ...c,
    run: ({ config, output, openDatabase }, input) =>
      withDatabase(config, openDatabase, true, (db) =>
        c.run({ db, output, clock: config.clock, baseUrl: publicUrlOf(config), webhookAllowPrivate: config.webhookAllowPrivate, secretKeys: adminSecretKeys(config) }, input),
      ),
  };
}

/** Every command, in the order `sheaf help` lists them. Later areas add theirs here. */
export const COMMANDS: Command<any>[] = [
  serveCommand,
  migrateCommand,
  ...[...adminCommands, ...Object.values(catalogCommands), ...Object.values(expenseCommands), ...Object.values(invoiceCommands), ...Object.values(approvalCommands), ...Object.values(outboxCommands), ...Object.values(invoiceSettingsCommands), ...Object.values(bankAccountCommands), ...Object.values(itemCategoryCommands), ...Object.values(recurringCommands), ...Object.values(reportCommands), ...Object.values(webhookCommands), ...Object.values(retainerCommands), ...Object.values(importCommands), ...Object.values(twoFactorCommands), ...Object.values(singleSignOnCommands)].map((c) => fromAdmin<any>(c)),
  ...backupCommands,
  mcpCommand,
  ...clientCommands,
];

const line = (c: Command<any>) => `sheaf ${c.name}${c.usage ? ` ${c.usage}` : ''}`;


/** The text of `sheaf help` (built on demand, so commands added to COMMANDS are listed). */
export const usage = () =>
  [
    'Usage: sheaf <command> [options] [--json]',
    '',
    helpRows([
      ...COMMANDS.map((c): [string, string] => [c.name, c.summary]),
      ['help [command]', "this text, or a command's or group's options (also: <command> --help)"],
      ['--version', "sheaf's version"],
    ]),
    '',
    'Values: ROLE is ' + ROLE_NAMES + '; B is true or false;',
    `P is one of ${PERMISSION_NAMES} (managers only).`,
    '--user, --manager and --teammate take a user id or an e-mail address.',
    'Every command takes --json: one JSON document on stdout; errors as JSON on stderr.',
    'Exit codes: 0 ok, 1 failure, 2 bad input, 3 not found, 4 conflict, 5 no key or key refused.',
    'Tracking (timer, log, entries, ...): over HTTP with SHEAF_URL, SHEAF_API_KEY and SHEAF_WORKSPACE_ID or "sheaf login".',
    'Database: PostgreSQL when DATABASE_URL is set (schema DATABASE_SCHEMA), else the embedded one',
    'in DATA_DIR (./data), which only one process at a time may open: stop the server first.',
    'Run "sheaf help <command>" for a command\'s options; see docs/cli.md.',
  ].join('\n');

export function commandHelp(c: Command<any>): string {
  return [`Usage: ${line(c)} [--json]`, '', ...wrapText(c.summary, 98).map((l) => `  ${l}`)].join('\n');
}

/** The commands of a group such as `admin key` (every command whose name starts with those words). */
export const groupCommands = (group: string) => COMMANDS.filter((c) => c.name.startsWith(`${group} `));

/** The text of `sheaf <group> --help`: the group's commands, aligned. */
export function groupHelp(group: string): string {
  const commands = groupCommands(group);
  return [
    `Usage: sheaf ${group} <command> [options] [--json]`,
    '',
    helpRows(commands.map((c): [string, string] => [c.name, c.summary])),
    '',
    `Run "sheaf help ${commands[0].name}" (or "sheaf ${commands[0].name} --help") for a command's options.`,
  ].join('\n');
}

/** Finds the command named by the leading words of `args`; returns it with the remaining arguments. */
function findCommand(args: string[]): { command?: Command<any>; rest: string[]; words: string[] } {
  const words: string[] = [];
  for (const a of args) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  // The longest command name that the leading words spell wins.
  for (let n = words.length; n > 0; n--) {
    const command = COMMANDS.find((c) => c.name === words.slice(0, n).join(' '));
    if (command) return { command, rest: args.slice(n), words: words.slice(0, n) };
  }
  return { rest: args.slice(words.length), words };
}

/** `sheaf help [words]` and `sheaf [words] --help`: a command's help, a group's, or all of it. */
function help(args: string[], output: Output): number {
  const words = (args[0] === 'help' ? args.slice(1) : args).filter((a) => a !== '--help' && a !== '-h');
  // Without a command, `leading` is every word before the first option, e.g. `admin key`.
  const { command, words: leading } = findCommand(words);
  const group = !command && leading.length && groupCommands(leading.join(' ')).length ? leading.join(' ') : undefined;
  if (!command && !group && leading.length) throw unknownCommand(leading);
  const listed = command ? [command] : group ? groupCommands(group) : COMMANDS;
  if (output.json) {
    output.out(JSON.stringify({ commands: listed.map((c) => ({ name: c.name, usage: line(c), summary: c.summary })) }, null, 2));
  } else output.out(command ? commandHelp(command) : group ? groupHelp(group) : usage());
  return EXIT.ok;
}

export interface CliIo {
  out?: (text: string) => void;
  err?: (text: string) => void;
  env?: Record<string, string | undefined>;
  /** Whether stdout is a terminal (default: process.stdout's, when `out` is not given). */
  tty?: boolean;
  /**
   * How a command opens its database (default: the configured one). The tests
   * hand out one already-open database to many commands run in-process, instead
   * of paying for opening (and, embedded, starting) a database per command.
   */
  openDatabase?: (config: Config) => Promise<Database>;
}

export async function main(argv: string[], io: CliIo = {}): Promise<number> {
  const output: Output = {
    json: argv.includes('--json'),
    out: io.out ?? ((t) => process.stdout.write(t + '\n')),
    err: io.err ?? ((t) => process.stderr.write(t + '\n')),
    tty: io.tty ?? (io.out ? false : process.stdout.isTTY === true),
  };
  const args = argv.filter((a) => a !== '--json');
  // The positional arguments as typed (e.g. file → toggl.csv), for naming them in an error.
  let positionals: Record<string, string> = {};
  try {
    if (args.length === 0) {
      output.err(usage());
      return EXIT.usage;
    }
    if (asksVersion(args)) {
      output.out(versionText(output.json));
      return EXIT.ok;
    }
    if (args[0] === 'help' || args.some((a) => a === '--help' || a === '-h')) return help(args, output);
    const { command, rest, words } = findCommand(args);
    if (!command) throw unknownCommand(words);
    const values = parseOptions(command, rest);
    positionals = Object.fromEntries((command.positionals ?? []).flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]]])));
    const input = command.parse(values);
    let config: Config;
    try {
      config = loadConfig(io.env ?? process.env);
    } catch (err) {
      throw new UsageError(`Configuration: ${(err as Error).message}`);
    }
    return await command.run({ config, output, env: io.env ?? process.env, openDatabase: io.openDatabase }, input);
  } catch (err) {
    return report(err, output, positionals);
  }
}

function unknownCommand(words: string[]): UsageError {
  const nextWords = (prefix: string[]) =>
    new Set(COMMANDS.filter((c) => c.name.startsWith(`${prefix.join(' ')} `)).map((c) => c.name.split(' ')[prefix.length]));
  const typed = words.join(' ');
  if (!typed) return new UsageError('No command given.');
  const next = nextWords(words);
  if (next.size) return new UsageError(`"sheaf ${typed}" needs one of: ${[...next].join(', ')}.`);
  // Name what the longest known prefix takes, e.g. "sheaf admin user takes: create, update, ...".
  for (let n = words.length - 1; n > 0; n--) {
    const known = nextWords(words.slice(0, n));
    if (known.size) return new UsageError(`Unknown command: sheaf ${typed} ("sheaf ${words.slice(0, n).join(' ')}" takes: ${[...known].join(', ')}).`);
  }
  return new UsageError(`Unknown command: sheaf ${typed}`);
}

export { parseOptions };

/** The flag a service field came from, e.g. rounding_minutes → --rounding-minutes. */
const optionFor = (field: string) => FIELD_OPTIONS[field] ?? `--${field.replaceAll('_', '-')}`;

/** A service error's `problems` (an import's lines and why), when it has them. */
function problemsOf(extras: Record<string, unknown>): Array<{ line: number; message: string }> {
  const problems = extras.problems;
  return Array.isArray(problems) ? problems.filter((x): x is { line: number; message: string } => typeof x?.line === 'number' && typeof x?.message === 'string') : [];
}

/**
 * Prints an error the way the user asked (text or JSON, on stderr) and returns the exit code.
 * A service field is named as the user gave it: the option it came from (--rounding-minutes),
 * or the positional argument's value (an import's file: the path typed); the problems of a
 * refused file are listed one a line (text) or as `problems` (JSON), as the API gives them.
 */
function report(err: unknown, output: Output, positionals: Record<string, string> = {}): number {
  let code: number;
  let body: Record<string, unknown>;
  let hint: string | undefined;
  let listed: string[] = [];
  if (err instanceof UsageError) {
    code = EXIT.usage;
    body = { error: 'usage', message: err.message };
    hint = err.usage ? `Usage: ${err.usage}` : 'Run "sheaf help" for usage.';
  } else if (err instanceof ApiError || err instanceof ServerRefusal) {
    code = err.statusCode === 404 ? EXIT.notFound : err.statusCode === 409 ? EXIT.conflict : err.statusCode < 500 ? EXIT.usage : EXIT.failure;
    const field = typeof err.extras.field === 'string' ? err.extras.field : undefined;
    let message = err.message;
    if (field && !message.startsWith('--')) {
      const option = positionals[field] ?? optionFor(field);
      message = message.startsWith(`${field} `) ? `${option}${message.slice(field.length)}` : `${option}: ${message}`;
    }
    const problems = problemsOf(err.extras);
    body = { error: err.code, message, ...(field ? { field } : {}), ...(problems.length ? { problems } : {}) };
    // One problem is the message itself; several are listed under it.
    if (problems.length > 1) listed = problems.map((x) => `  Line ${x.line}: ${x.message}`);
  } else {
    code = EXIT.failure;
    const e = err as (Error & { code?: string; port?: number }) | undefined;
    const message =
      e?.code === 'EADDRINUSE'
        ? `The port${e.port ? ` ${e.port}` : ''} is already in use: stop what holds it, or choose another with --port or PORT.`
        : (e?.message ?? String(err));
    body = { error: 'failure', message };
  }
  output.err(output.json ? JSON.stringify(body) : [`sheaf: ${body.message}`, ...listed, hint].filter(Boolean).join('\n'));
  return code;
}

/** Opens the configured database (migrating it first for admin commands), runs `fn`, always closes it. */
async function withDatabase(
  config: Config,
  open: ((config: Config) => Promise<Database>) | undefined,
  migrateFirst: boolean,
  fn: (db: Kysely<DB>) => Promise<void>,
): Promise<number> {
  const database = await (open ?? (await import('../server.ts')).openConfiguredDatabase)(config);
  try {
    if (migrateFirst) {
      const { migrate } = await import('../db/migrate.ts');
      await migrate(database.db);
    }
    await fn(database.db);
    return EXIT.ok;
  } finally {
    await database.close();
  }
}

/**
 * `sheaf serve`: listens until SIGINT or SIGTERM, then stops accepting
 * connections, finishes requests in flight, closes the database (releasing the
 * embedded database's lock) and exits 0. A second signal exits at once.
 */
async function serve(config: Config, output: Output): Promise<number> {
  const { startServer } = await import('../server.ts');
  const { deliverFirstStart } = await import('./first-start.ts');
  let onSignal!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (onSignal = resolve));
  let signalled = false;
  const handler = (signal: NodeJS.Signals) => {
    if (signalled) {
      output.err(`sheaf: ${signal} again: exiting without waiting.`);
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    signalled = true;
    onSignal(signal);
  };
  // Registered before the (slow) start, so a signal during start-up still shuts down cleanly.
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    const event = (value: Record<string, unknown>) => output.out(JSON.stringify(value));
    let webDist = config.webDist;
    if (config.webBuild) {
      const { prepareWebApp } = await import('./web-build.ts');
      webDist = await prepareWebApp({
        info: (message) => (output.json ? event({ event: 'building_web_app', message }) : output.out(message)),
        warn: (message) => output.err(`sheaf: ${message}`),
      });
    }
    const server = await startServer({ ...config, webDist });
    if (server.firstStart) {
      await deliverFirstStart({ first: server.firstStart, url: server.url, dataDir: config.dataDir, tty: output.tty === true, output, log: server.app.log });
    }
    if (output.json) event({ event: 'listening', url: server.url, database: server.database.kind });
    else {
      output.out(`Sheaf API listening on ${server.url}/api/v2 (${server.database.kind === 'pglite' ? `embedded database in ${resolve(config.dataDir!)}` : 'PostgreSQL'}); Ctrl-C stops it.`);
      if (webDist) output.out(`Web app on ${server.url}/`);
      if (server.database.kind === 'postgres') {
        const { countWorkspaces } = await import('../modules/workspace/settings/service.ts');
        if ((await countWorkspaces(server.database.db)) === 0) {
          output.out('No workspace yet: create one with "sheaf admin workspace create --name NAME" (see docs/cli.md).');
        }
      }
    }
    const signal = await stopped;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), SHUTDOWN_TIMEOUT_MS)));
    const result = await Promise.race([server.close().then(() => 'closed' as const), timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      output.err(`sheaf: requests still running ${SHUTDOWN_TIMEOUT_MS / 1000} s after ${signal}; exiting anyway.`);
      return EXIT.failure;
    }
    if (output.json) event({ event: 'stopped', signal });
    else output.out(`Stopped (${signal}).`);
    return EXIT.ok;
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
}
