#!/usr/bin/env node
// The `sheaf` command. Sheaf is TypeScript run through tsx's loader, so there is
// no build step between `npm install` and `npm start`.
import { setTimeout } from 'node:timers';
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';
import { loadServerLibraries } from './server-libraries.js';

// A reader that stops early (`sheaf export | head`) closes the pipe: the output was not wanted
// any more, which is no failure of the command's (exit 0, no "write EPIPE").
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const command = process.argv[2];
const asksHelp = command === 'help' || process.argv.includes('--help') || process.argv.includes('-h');
if (['serve', 'migrate', 'admin'].includes(command) || asksHelp) {
  // These load main.ts, with every admin command and the database libraries, whose
  // start costs less with the libraries loaded before the hooks (server-libraries.js).
  await loadServerLibraries();
}
if (command !== 'serve') {
  // The embedded database is PostgreSQL compiled to WebAssembly. A one-shot command
  // ends before V8's optimizing tier would pay off, so it does not spend CPU on it;
  // `serve` keeps the default and gets optimized code.
  setFlagsFromString('--wasm-tiering-budget=1000000000');
}
register();
// The person commands (sheaf timer, log, entries, …: HTTP clients of a server)
// start without the admin commands, their services and the database libraries,
// which main.ts loads: runClientCommand answers them, or undefined for the rest.
let code;
if (!['serve', 'migrate', 'admin'].includes(command)) {
  const { runClientCommand } = await import('../src/cli/client/index.ts');
  code = await runClientCommand(process.argv.slice(2));
}
if (code === undefined) {
  const { main } = await import('../src/cli/main.ts');
  code = await main(process.argv.slice(2));
}
process.exitCode = code;
// The command is done and its database closed. Should a stray handle (a socket,
// a timer in a dependency) keep the event loop alive, do not hang: exit anyway.
setTimeout(() => process.exit(code), 2000).unref();
