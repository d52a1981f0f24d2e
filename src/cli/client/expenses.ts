import { basename, extname } from 'node:path';
import { stat } from 'node:fs/promises';
import { str } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';
import { dateOn, parseDate } from './dates.ts';
import { money, show } from './format.ts';
import { findCategory, findProject } from './lookups.ts';
import { boolOption } from './timer.ts';

/**
 * `sheaf expenses add`: POST /api/v2/expenses (source cli), with --receipt as
 * multipart/form-data and the file in its `receipt` part (DESIGN: receipts),
 * else as JSON. The server checks the file's size and type; its refusal
 * (413, 415) is printed as it says it.
 */

/** The receipt's type by its extension; the server sniffs the bytes and refuses what they are not. */
const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
};

interface AddInput {
  project: string;
  category: string;
  date: string;
  cost?: string;
  units?: string;
  notes?: string;
  billable?: boolean;
  receipt?: string;
}

const DECIMAL = /^\d+(\.\d+)?$/;

const add: ClientCommand<AddInput> = {
  name: 'expenses add',
  usage: '--project ID|CODE|NAME --category ID|NAME (--cost AMOUNT | --units N) [--date D] [--notes TEXT] [--billable true|false] [--receipt FILE]',
  summary: "record an expense (source cli) in the project client's currency; --receipt attaches a PDF, PNG, JPEG, GIF or HEIC file (10 MiB at most)",
  options: { project: str, category: str, cost: str, units: str, date: str, notes: str, billable: str, receipt: str },
  parse(v) {
    if (!v.project) throw new UsageError('--project is required.');
    if (!v.category) throw new UsageError('--category is required (an expense category id or name).');
    if ((v.cost === undefined) === (v.units === undefined)) throw new UsageError('Give exactly one of --cost and --units.');
    for (const o of ['cost', 'units'] as const) {
      if (v[o] !== undefined && !DECIMAL.test(v[o])) throw new UsageError(`--${o} must be a decimal number such as 12.50, not '${v[o]}'.`);
    }
    if (v.receipt === '') throw new UsageError('--receipt needs a file.');
    return {
      project: v.project,
      category: v.category,
      date: parseDate(v.date ?? 'today', '--date')!,
      cost: v.cost,
      units: v.units,
      notes: v.notes,
      billable: boolOption(v.billable, '--billable'),
      receipt: v.receipt,
    };
  },
  async run({ api, output, calendar }, input) {
    let size: number | undefined;
    if (input.receipt) {
      size = await stat(input.receipt).then(
        (s) => (s.isFile() ? s.size : undefined),
        () => undefined,
      );
      if (size === undefined) throw new UsageError(`--receipt: there is no file ${input.receipt}.`);
    }
    const client = await api();
    const [project, category] = await Promise.all([findProject(client, input.project), findCategory(client, input.category)]);
    const fields: Record<string, string | number | boolean> = {
      project_id: project.id,
      expense_category_id: category.id,
      spent_date: await dateOn(input.date, calendar),
      source: 'cli',
    };
    if (input.cost !== undefined) fields.total_cost = Number(input.cost);
    if (input.units !== undefined) fields.units = Number(input.units);
    if (input.notes !== undefined) fields.notes = input.notes;
    if (input.billable !== undefined) fields.billable = input.billable;
    let expense: any;
    if (input.receipt) {
      const { openAsBlob } = await import('node:fs');
      const form = new FormData();
      // Decimals as typed, not through a float.
      for (const [k, val] of Object.entries(fields)) form.append(k, k === 'total_cost' ? input.cost! : k === 'units' ? input.units! : String(val));
      const type = TYPES[extname(input.receipt).toLowerCase()] ?? 'application/octet-stream';
      form.append('receipt', await openAsBlob(input.receipt, { type }), basename(input.receipt));
      expense = await client.json('POST', '/api/v2/expenses', { form });
    } else {
      expense = await client.json('POST', '/api/v2/expenses', { json: fields });
    }
    show(
      output,
      expense,
      () =>
        `Recorded: ${money(expense.total_cost, project.client?.currency)} ${category.name} on ${project.name}, ${expense.spent_date}` +
        `${expense.receipt ? `, receipt ${expense.receipt.file_name} (${expense.receipt.byte_size} bytes)` : ''} (expense ${expense.id})`,
    );
  },
};

export const expenseCommands: ClientCommand<any>[] = [add];
