import { readFileSync } from 'node:fs';

/** The version in package.json (read when asked, so a normal command does not pay for it). */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Whether the arguments (without --json) ask for `sheaf --version`. */
export const asksVersion = (args: string[]) => args.length === 1 && (args[0] === '--version' || args[0] === '-v');

/** What `sheaf --version` prints. */
export const versionText = (json: boolean) => (json ? JSON.stringify({ version: version() }) : `sheaf ${version()}`);
