import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ApiError } from '../errors.ts';
import { isId } from '../ids.ts';
import { getWorkspace } from '../modules/workspace/settings/index.ts';
import { listOutbox, OUTBOX_STATUSES, retryOutbox, type OutboxListing, type OutboxStatus } from '../modules/workspace/outbox/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { optionalWorkspaceOption } from './options.ts';
import { print, table, UsageError } from './output.ts';

/**
 * `sheaf admin outbox list|retry`: the e-mail queue as the operator sees it
 * (what is waiting, what was sent, what failed and why) and a retry for
 * messages that failed (or that should not wait for their backoff), across
 * every workspace or one. Options are checked before the database is opened.
 */

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;


async function requireWorkspace(db: Kysely<DB>, id: string | undefined) {
  if (!id) return;
  try {
    await getWorkspace(db, id);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') {
      throw new ApiError('not_found', `No workspace with id ${id} (see "sheaf admin workspace list").`, { field: 'workspace' });
    }
    throw err;
  }
}

/** One line of at most `room` characters (SMTP errors span lines; the whole text is in --json). */
function clip(text: string | null, room: number): string | null {
  if (text === null) return null;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > room ? `${line.slice(0, room - 1)}…` : line;
}

const row = (m: OutboxListing) => ({
  id: m.id,
  workspace: m.workspace_id,
  kind: m.kind,
  to: clip(m.to.length > 1 ? `${m.to[0]} +${m.to.length - 1}` : (m.to[0] ?? ''), 40),
  subject: clip(m.subject, 40),
  attempts: m.attempts,
  status: m.status,
  last_error: clip(m.last_error, 60),
  next_attempt: m.next_attempt_at,
});

const COLUMNS = ['id', 'workspace', 'kind', 'to', 'subject', 'attempts', 'status', 'last_error', 'next_attempt'];

interface ListArgs {
  status?: OutboxStatus;
  workspace?: string;
  limit: number;
}

const list: AdminCommand<ListArgs> = {
  name: 'admin outbox list',
  usage: `[--status ${OUTBOX_STATUSES.join('|')}] [--workspace ID] [--limit N]`,
  summary: 'list queued e-mails, newest first: recipients, attempts, status, last error and next attempt (every workspace unless --workspace)',
  options: { status: str, workspace: str, limit: str },
  parse(values) {
    const status = values.status;
    if (status !== undefined && !(OUTBOX_STATUSES as readonly string[]).includes(status)) {
      throw new UsageError(`--status must be ${OUTBOX_STATUSES.join(', ').replace(/, (\w+)$/, ' or $1')}, not '${status}'.`);
    }
    const limit = values.limit ?? String(DEFAULT_LIMIT);
    if (!/^\d{1,6}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT) {
      throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, not '${limit}'.`);
    }
    return { status: status as OutboxStatus | undefined, workspace: optionalWorkspaceOption(values), limit: Number(limit) };
  },
  async run({ db, output }, input) {
    await requireWorkspace(db, input.workspace);
    const { messages, more } = await listOutbox(db, { status: input.status, workspaceId: input.workspace, limit: input.limit });
    print(output, messages, () =>
      [table(messages.map(row), COLUMNS), ...(more ? [`(the newest ${input.limit}; older ones with --limit N)`] : [])].join('\n'),
    );
  },
};

type RetryArgs = { id: string; workspaceId?: string } | { allFailed: true; workspaceId?: string };

const retry: AdminCommand<RetryArgs> = {
  name: 'admin outbox retry',
  usage: 'ID|--all-failed [--workspace ID]',
  summary:
    'make a failed (or waiting) e-mail due now, with a fresh three-day retry schedule; --all-failed: every failed one (of the workspace)',
  options: { 'all-failed': { type: 'boolean' }, workspace: str },
  positionals: ['id'],
  parse(values) {
    const id = values.id;
    const all = (values['all-failed'] as unknown as boolean | undefined) === true;
    const workspaceId = optionalWorkspaceOption(values);
    if (id !== undefined && all) throw new UsageError('Name one message id or --all-failed, not both.');
    if (all) return { allFailed: true, workspaceId };
    if (id === undefined) throw new UsageError('Name the message to retry (its id from "sheaf admin outbox list"), or --all-failed.');
    if (!isId(id)) throw new UsageError(`The message to retry must be an outbox message id (see "sheaf admin outbox list"), not '${id}'.`);
    return { id, workspaceId };
  },
  async run({ db, output, clock }, input) {
    await requireWorkspace(db, input.workspaceId);
    const retried = await retryOutbox(db, input, clock());
    print(output, retried, () =>
      retried.length === 0
        ? 'No failed e-mails to retry.'
        : [
            `${retried.length === 1 ? 'This e-mail is' : `These ${retried.length} e-mails are`} due now, with a fresh retry schedule ` +
              '(sheaf serve with SMTP_URL sends them within seconds):',
            table(retried, ['id', 'workspace_id', 'previous_status', 'previous_attempts']),
          ].join('\n'),
    );
  },
};

/**
 * The outbox commands by name, for the command table of src/cli/main.ts:
 * `...Object.values(outboxCommands)` next to the other areas' commands.
 */
export const outboxCommands: Record<string, AdminCommand<any>> = { list, retry };
