import { parseArgs } from 'node:util';
import type { Command, Options, Values } from './command.ts';
import { UsageError } from './output.ts';

/**
 * A command's options and positionals from its arguments (node's parseArgs,
 * strict). In a file of its own, free of the admin commands, so the person
 * commands' light start (src/cli/client/) parses exactly as `main` does.
 */

/** `sheaf <name> <usage>`: a command's usage line. */
export const usageLine = (c: Pick<Command<any>, 'name' | 'usage'>) => `sheaf ${c.name}${c.usage ? ` ${c.usage}` : ''}`;

export function parseOptions(command: Pick<Command<any>, 'name' | 'usage' | 'options' | 'positionals'>, argv: string[]): Values {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: Options; strict: true; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: command.options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(parseErrorMessage(err as Error & { code?: string }, command.name), usageLine(command));
  }
  const names = command.positionals ?? [];
  if (parsed.positionals.length > names.length) throw new UsageError(`Unexpected argument '${parsed.positionals[names.length]}'.`, usageLine(command));
  return { ...parsed.values, ...Object.fromEntries(parsed.positionals.map((v, i) => [names[i], v])) } as Values;
}

function parseErrorMessage(err: Error & { code?: string }, name: string): string {
  const option = /'(-[^' ]+)/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `Unknown option ${option} for "sheaf ${name}".`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return err.message.includes('ambiguous')
      ? `${option} needs a value (write ${option}=VALUE for a value that starts with "-").`
      : `${option} needs a value.`;
  }
  return err.message;
}
