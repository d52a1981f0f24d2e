import type { Readable, Writable } from 'node:stream';
import type { Command, Options, Values } from '../command.ts';
import { BadServerUrl } from '../../server-url.ts';
import { EXIT } from '../exit-codes.ts';
import { UsageError, type Output } from '../output.ts';
import { usageLine } from '../parse-options.ts';
import { FALLBACK_NOTE, workspaceCalendar } from './calendar.ts';
import type { Calendar, CalendarSource } from './dates.ts';
import { ApiClient, ApiRefusal, ConnectionFailure } from './http.ts';
import { NotSignedIn, resolveCredentials, type Env } from './profiles.ts';

/**
 * A person command: an HTTP client of a Sheaf server (src/cli/client/), never
 * of the database. It reports its own errors (the API's message and field,
 * what failed on the way to the server, exit code 5 for a missing or refused
 * key), so it behaves the same from `main` (help, tests in-process) and from
 * the light start in bin/sheaf.js (index.ts's runClientCommand).
 */

export interface ClientContext {
  output: Output;
  env: Env;
  /** The API client for the chosen credentials (the environment over the --profile's); made on first use. */
  api(): Promise<ApiClient>;
  /** Raw stdout for files (CSV, XLSX, PDF written to "-"). */
  stdout: Writable;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** --profile NAME as given (undefined: SHEAF_PROFILE, else "default"). */
  profile?: string;
  /** The workspace's today and week start (calendar.ts), read on first use. */
  calendar: CalendarSource;
}

export interface ClientCommand<T> {
  name: string;
  usage: string;
  summary: string;
  options: Options;
  positionals?: string[];
  positionalValues?: readonly string[];
  /** Checks the options (no network); throws UsageError. */
  parse(values: Values): T;
  run(ctx: ClientContext, input: T): Promise<number | void>;
}

/** Every person command also takes --profile NAME. */
const profileOption: Options = { profile: { type: 'string' } };

/** The person command as one of `main`'s commands (help, completion, in-process runs). */
export function asCommand<T>(c: ClientCommand<T>): Command<T & { profile?: string }> {
  const options = { ...c.options, ...profileOption };
  return {
    name: c.name,
    usage: c.usage ? `${c.usage} [--profile NAME]` : '[--profile NAME]',
    summary: c.summary,
    options,
    positionals: c.positionals,
    positionalValues: c.positionalValues,
    parse: (values) => ({ ...c.parse(values), profile: values.profile }),
    run: ({ output, env }, input) => runClient(c, input, { output, env: env ?? process.env }),
  };
}

/** Runs a parsed command with its context; every error is reported here and becomes the exit code. */
export async function runClient<T>(
  c: ClientCommand<T>,
  input: T & { profile?: string },
  io: { output: Output; env: Env; stdout?: Writable; stdin?: ClientContext['stdin'] },
): Promise<number> {
  let client: Promise<ApiClient> | undefined;
  let calendar: Promise<Calendar> | undefined;
  const ctx: ClientContext = {
    output: io.output,
    env: io.env,
    api: () => (client ??= resolveCredentials(io.env, input.profile).then((credentials) => new ApiClient(credentials))),
    stdout: io.stdout ?? process.stdout,
    stdin: io.stdin ?? process.stdin,
    profile: input.profile,
    calendar: () =>
      (calendar ??= ctx.api().then(async (api) => {
        const found = await workspaceCalendar(api);
        // Said once, so that a week that differs from the web app's is not a surprise.
        if (found.fallback) io.output.err(FALLBACK_NOTE);
        return found;
      })),
  };
  try {
    return (await c.run(ctx, input)) ?? EXIT.ok;
  } catch (err) {
    return reportClientError(err, io.output, c);
  }
}

/** API fields as the options that set them, so a refusal names what the person typed. */
const OPTION_OF_FIELD: Record<string, string> = {
  project_id: '--project',
  task_id: '--task',
  client_id: '--client',
  spent_date: '--date',
  started_time: '--from',
  ended_time: '--to',
  expense_category_id: '--category',
  total_cost: '--cost',
  receipt: '--receipt',
  recipients: '--to',
  cc_recipients: '--cc',
  user_id: '--user',
  // invoice create's range, sent as the import's time and expenses ranges
  'line_items_import.time.from': '--from',
  'line_items_import.time.to': '--to',
  'line_items_import.expenses.from': '--from',
  'line_items_import.expenses.to': '--to',
};

/**
 * The option that set an API field: OPTION_OF_FIELD's, else the field's own
 * name as an option; none when the command has no such option (restart's
 * entry date is not something its user typed, so no --date is named).
 */
function optionOf(field: string, command?: Pick<ClientCommand<unknown>, 'options'>): string | undefined {
  const option = OPTION_OF_FIELD[field] ?? `--${field.replaceAll('_', '-')}`;
  return command && Object.hasOwn(command.options, option.slice(2)) ? option : undefined;
}

/** Prints an error the way the user asked (text or JSON, on stderr) and returns the exit code (docs/cli.md). */
export function reportClientError(err: unknown, output: Output, command?: Pick<ClientCommand<unknown>, 'name' | 'usage' | 'options'>): number {
  let code: number;
  let body: Record<string, unknown>;
  let hint: string | undefined;
  if (err instanceof UsageError) {
    code = EXIT.usage;
    body = { error: 'usage', message: err.message };
    hint = err.usage ? `Usage: ${err.usage}` : command ? `Usage: ${usageLine(command)}` : 'Run "sheaf help" for usage.';
  } else if (err instanceof BadServerUrl) {
    code = EXIT.usage;
    body = { error: 'bad_url', message: err.message };
  } else if (err instanceof NotSignedIn) {
    code = EXIT.auth;
    body = { error: 'not_signed_in', message: err.message };
  } else if (err instanceof ApiRefusal) {
    const s = err.status;
    code = s === 401 || s === 403 ? EXIT.auth : s === 404 ? EXIT.notFound : s === 409 || s === 412 || s === 428 ? EXIT.conflict : s < 500 && s !== 429 ? EXIT.usage : EXIT.failure;
    const option = err.field ? optionOf(err.field, command) : undefined;
    const message = err.field ? `${err.message} (field ${err.field}${option ? `: ${option}` : ''})` : err.message;
    body = { error: err.code, message, status: s, ...(err.field ? { field: err.field } : {}) };
  } else if (err instanceof ConnectionFailure) {
    code = EXIT.failure;
    body = { error: 'connection_failed', message: `Could not reach the server: ${err.message}` };
  } else {
    code = EXIT.failure;
    body = { error: 'failure', message: (err as Error | undefined)?.message ?? String(err) };
  }
  output.err(output.json ? JSON.stringify(body) : [`sheaf: ${body.message}`, hint].filter(Boolean).join('\n'));
  return code;
}
