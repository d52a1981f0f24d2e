/**
 * The exit codes of `sheaf`, documented in docs/cli.md. In a file of their own
 * (no imports) so the person commands (src/cli/client/), which start without
 * loading the admin commands, use the same table.
 */
export const EXIT = {
  ok: 0,
  /** Anything unexpected: database unreachable or locked by a running server, port in use, a server that cannot be reached, a bug. */
  failure: 1,
  /** Bad input: unknown command or option, invalid value. Nothing was changed. */
  usage: 2,
  /** The workspace, user, key, assignment or outbox message named does not exist. */
  notFound: 3,
  /** The change conflicts with the current state (already a member, last active owner, ...). */
  conflict: 4,
  /** Not allowed, in the person commands: no API key, the server refused the key (401), or refused its user the action (403: role, permission, or a workspace setting such as approvals off). */
  auth: 5,
} as const;
