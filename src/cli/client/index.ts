import type { Command } from '../command.ts';
import { EXIT } from '../exit-codes.ts';
import type { Output } from '../output.ts';
import { parseOptions } from '../parse-options.ts';
import { asCommand, reportClientError, runClient, type ClientCommand } from './command.ts';
import { completionCommands } from './completion.ts';
import { expenseCommands } from './expenses.ts';
import { exportCommands } from './export.ts';
import { invoiceCommands } from './invoice.ts';
import { loginCommands } from './login.ts';
import { projectCommands } from './projects.ts';
import type { Env } from './profiles.ts';
import { reportCommands } from './report.ts';
import { submitCommands } from './submit.ts';
import { timeCommands } from './time.ts';
import { timerCommands } from './timer.ts';
import { asksVersion, versionText } from '../version.ts';

/**
 * The commands a person uses: HTTP clients of a Sheaf server's /api/v2 with a
 * full-access key (docs/cli.md, "Tracking from the terminal"). They never
 * open the database, so they work while the embedded server runs, and they
 * start light: bin/sheaf.js runs them through runClientCommand, which loads
 * this folder and not the admin commands' services, kysely or PGlite
 * (test/cli-client.test.ts checks the import graph).
 */

const CLIENT_COMMANDS: ClientCommand<any>[] = [
  ...timerCommands,
  ...timeCommands,
  ...expenseCommands,
  ...submitCommands,
  ...projectCommands,
  ...invoiceCommands,
  ...reportCommands,
  ...exportCommands,
  ...loginCommands,
  ...completionCommands,
];

/** The person commands as `main`'s commands: `sheaf help` lists them, and main runs them as well. */
export const clientCommands: Command<any>[] = CLIENT_COMMANDS.map((c) => asCommand(c));

/**
 * Runs a person command without loading main.ts; undefined when `argv` is not
 * one (help, another command, an unknown word: main.ts answers those).
 */
export async function runClientCommand(argv: string[], io: { output?: Output; env?: Env } = {}): Promise<number | undefined> {
  const args = argv.filter((a) => a !== '--json');
  const output: Output = io.output ?? {
    json: argv.includes('--json'),
    out: (t) => process.stdout.write(t + '\n'),
    err: (t) => process.stderr.write(t + '\n'),
    tty: process.stdout.isTTY === true,
  };
  // `sheaf --version` is answered here too, without loading the admin commands (main.ts).
  if (asksVersion(args)) {
    output.out(versionText(argv.includes('--json')));
    return EXIT.ok;
  }
  if (args[0] === 'help' || args.some((a) => a === '--help' || a === '-h')) return undefined;
  const words: string[] = [];
  for (const a of args) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  let found: { command: Command<any>; raw: ClientCommand<any>; n: number } | undefined;
  for (let n = words.length; n > 0 && !found; n--) {
    const i = clientCommands.findIndex((c) => c.name === words.slice(0, n).join(' '));
    if (i >= 0) found = { command: clientCommands[i], raw: CLIENT_COMMANDS[i], n };
  }
  if (!found) return undefined;
  let input: any;
  try {
    input = found.command.parse(parseOptions(found.command, args.slice(found.n)));
  } catch (err) {
    return reportClientError(err, output);
  }
  return (await runClient(found.raw, input, { output, env: io.env ?? process.env })) ?? EXIT.ok;
}
