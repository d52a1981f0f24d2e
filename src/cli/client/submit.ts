import { str } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';
import { clock, show } from './format.ts';
import { dateRange, rangeOn, type RangeInput } from './dates.ts';

/**
 * `sheaf submit`: submits your own completed, unsubmitted time (and expenses)
 * of a week for approval (POST /api/v2/approvals/submit with from and to; the
 * API has no user_id there, it is always the caller's). A running timer in the
 * period is the API's 409 running_timer (exit 4).
 */
const submit: ClientCommand<RangeInput> = {
  name: 'submit',
  usage: '[--week current|last|YYYY-Www | --from D --to D]',
  summary: "submit your time and expenses of a week (default: this week, as the workspace counts weeks) for approval; approvers are notified",
  options: { week: str, from: str, to: str },
  parse(v) {
    const range = dateRange(v, 'week');
    if (range.week === undefined && (!range.from || !range.to)) throw new UsageError('Give both --from and --to (or --week).');
    return range;
  },
  async run({ api, output, calendar }, range) {
    const client = await api();
    const input = (await rangeOn(range, calendar)) as { from: string; to: string };
    const result = await client.json<{ submitted_count: number; submitted_seconds: number; fingerprint: string }>('POST', '/api/v2/approvals/submit', { json: input });
    show(output, result, () =>
      result.submitted_count
        ? `Submitted ${result.submitted_count} record${result.submitted_count === 1 ? '' : 's'} (${clock(result.submitted_seconds)} h of time) from ${input.from} to ${input.to} for approval.`
        : `Nothing to submit from ${input.from} to ${input.to}: no completed, unsubmitted time or expenses.`,
    );
  },
};

export const submitCommands: ClientCommand<any>[] = [submit];
