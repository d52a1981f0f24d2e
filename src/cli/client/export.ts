import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { str } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';
import { refuseJsonOnStdout, writeDownload } from './files.ts';
import { show } from './format.ts';
import { FILTER_OPTIONS, FILTER_USAGE, filterQuery, parseFilters, type EntryFilters } from './time.ts';

/**
 * `sheaf export`: time entries as CSV or XLSX, streamed from
 * GET /api/v2/time_entries/export?format=csv|xlsx with the list's filters
 * (the same as `sheaf entries`, but no range by default: everything the
 * filters select) into a file or stdout, never held in memory whole.
 */
const exportCommand: ClientCommand<EntryFilters & { format: 'csv' | 'xlsx'; out?: string }> = {
  name: 'export',
  usage: `[--format csv|xlsx] [--out FILE|-] ${FILTER_USAGE}`,
  summary: 'time entries as CSV or XLSX to a file or stdout (default: CSV to stdout; --out x.xlsx picks XLSX); the filters of entries, but every date unless one is given',
  options: { ...FILTER_OPTIONS, format: str, out: str },
  parse(v) {
    const byName = v.out && v.out !== '-' ? extname(v.out).toLowerCase().slice(1) : undefined;
    // A file named for another format (week.ods) would get CSV under that name: said, unless --format chooses.
    if (v.format === undefined && byName && byName !== 'csv' && byName !== 'xlsx') {
      throw new UsageError(`--out ${v.out}: the export is CSV or XLSX; name the file .csv or .xlsx, or choose with --format.`);
    }
    const format = v.format ?? (byName === 'xlsx' ? 'xlsx' : 'csv');
    if (format !== 'csv' && format !== 'xlsx') throw new UsageError(`--format must be csv or xlsx, not '${format}'.`);
    return { ...parseFilters(v, 'none'), format, out: v.out };
  },
  async run({ api, output, stdout, calendar }, input) {
    const toStdout = !input.out || input.out === '-';
    refuseJsonOnStdout(output, toStdout, 'the export');
    if (toStdout && input.format === 'xlsx' && output.tty) throw new UsageError('XLSX is a binary file: write it with --out FILE.xlsx (or redirect stdout).');
    const client = await api();
    const query = await filterQuery(client, calendar, input);
    const res = await client.send('GET', '/api/v2/time_entries/export', { query: { ...query, format: input.format }, accept: '*/*' });
    const body = Readable.fromWeb(res.body as never);
    if (toStdout) {
      await pipeline(body, stdout, { end: false });
      return;
    }
    const bytes = await writeDownload(body, input.out!, '--out');
    show(output, { file: input.out, format: input.format, bytes }, () => `Wrote ${input.out} (${input.format.toUpperCase()}, ${bytes} bytes).`);
  },
};

export const exportCommands: ClientCommand<any>[] = [exportCommand];
