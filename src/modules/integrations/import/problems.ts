/**
 * What an import says of a file: why it cannot be read, why a line cannot be imported, what it
 * warns of, why a row is skipped. Each is a word (`problem`) with the values it names (`values`:
 * the file's own column names, the cell's text, counts), so the web app can say it in the
 * reader's language (web/src/areas/import/texts.ts, `problems`); `message` is the English
 * sentence, as API clients read it. The one list of the words and their English is here.
 */

type Values = Readonly<Record<string, string | number>>;

const en = (n: string | number) => (typeof n === 'number' ? n.toLocaleString('en-US') : n);

const ENGLISH = {
  // A cell that cannot be read.
  too_long: (v: Values) => `${v.column} is longer than ${en(v.max)} characters.`,
  nul_character: (v: Values) => `${v.column} contains the NUL character.`,
  not_an_email: (v: Values) => `${v.column} '${v.value}' is not an e-mail address.`,
  not_yes_no: (v: Values) => `${v.column} must be Yes or No, not '${v.value}'.`,
  not_a_date: (v: Values) => `${v.column} '${v.value}' is not a date.`,
  not_a_date_format: (v: Values) => `${v.column} '${v.value}' is not a date (YYYY-MM-DD, MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY).`,
  not_a_date_time: (v: Values) => `${v.column} '${v.value}' is not a date and time (YYYY-MM-DD HH:MM:SS).`,
  not_a_time: (v: Values) => `${v.column} '${v.value}' is not a time of day.`,
  not_a_duration: (v: Values) => `${v.column} '${v.value}' is not a duration (H:MM or H:MM:SS).`,
  empty: (v: Values) => `${v.column} is empty.`,
  not_a_number: (v: Values) => `${v.column} '${v.value}' is not a number.`,
  either_separator: (v: Values) =>
    `${v.column} '${v.value}' could be a thousands or a decimal separator: export the file again without thousands separators.`,
  negative: (v: Values) => `${v.column} '${v.value}' is negative.`,
  rate_too_large: (v: Values) => `${v.column} '${v.value}' is larger than Sheaf's largest rate.`,
  derived_rate_too_large: (v: Values) =>
    `The rate ${v.rate} an hour (${v.column} '${v.value}' for ${v.duration}) is larger than Sheaf's largest rate.`,
  not_a_currency: (v: Values) => `${v.column} '${v.value}' is not a currency.`,
  hours_out_of_range: (v: Values) => `${v.column} '${v.value}' must be between 0 and 24 hours for one entry.`,
  duration_out_of_range: (v: Values) => `${v.column}: an entry lasts between 0 and 24 hours, not ${v.hours} hours.`,
  ends_before_start: () => 'The entry ends before it starts.',
  running_timer: (v: Values) => `${v.column} is empty: a running timer cannot be imported.`,
  no_duration: () => 'The entry has no duration: End Date and End Time, Duration (decimal) and Duration (h) are empty or absent.',
  // A line the file's shape refuses.
  field_count: (v: Values) => `it has ${v.fields} fields, the header ${v.header}.`,
  missing_columns: (v: Values) => `missing ${v.missing}`,
  unknown_header: () => 'unknown header',
  not_csv_line: (v: Values) => `${v.reason}`,
  // Whom a line names.
  agent_identity: (v: Values) => `${v.email} belongs to an agent identity, which cannot be invited.`,
  ambiguous_name: (v: Values) => `${v.count} members are called '${v.name}': the file has no e-mail to tell them apart.`,
  unknown_person: (v: Values) => `no member is called '${v.name}' and the file has no e-mail to invite them: add them to the workspace first.`,
  no_person: () => 'the entry names no person.',
  // The file as a whole (the error's own `problem`).
  not_utf8: () => 'The file is not UTF-8 text: export it again as CSV (UTF-8).',
  not_csv: (v: Values) => `Line ${v.line}: the file is not valid CSV (${v.reason}).`,
  empty_file: () => 'The file is empty: export the detailed report as CSV, with its header line.',
  no_entries: () => 'The file has a header but no entries.',
  not_a_known_export: (v: Values) => `Line 1: the header is not that of a known export (${v.trackers}): it has ${v.header}.`,
  not_this_export: (v: Values) => `Line 1: this is not a ${v.tracker} export: the header lacks ${v.missing}.`,
  header_lacks: (v: Values) =>
    `Line 1: the header of this ${v.tracker} export lacks ${v.missing}, which every row needs: export the report again with all its columns.`,
  lines_at_fault: (v: Values) =>
    `Line ${v.line}: ${v.first}${
      Number(v.more) > 0 ? ` (and ${v.more} more line${Number(v.more) > 1 ? 's' : ''}; nothing was imported)` : ' (nothing was imported)'
    }`,
  // Warnings of a preview.
  dates_read_month_first: (v: Values) =>
    `${v.column} '${v.value}' and the file's other dates read either way: they were read month first (${v.read_as}); if the file writes the day first, import it with the date order day first.`,
  client_currency: (v: Values) =>
    `the client ${v.client} bills in ${v.client_currency}; the file's rates are in ${v.currency} and are kept as numbers.`,
  project_bills_no_rate: (v: Values) => `the project ${v.project} exists and bills no rate: its own rates price the imported entries, the file's are not applied.`,
  project_bills_by: (v: Values) =>
    `the project ${v.project} exists and bills by ${v.bill_by}: its own rates price the imported entries, the file's are not applied.`,
  rate_same_day: (v: Values) =>
    `the rate ${v.rate} differs from ${v.current} (line ${v.line}) for the same person and project on ${v.date}; that day is priced at ${v.current}.`,
  // A row skipped.
  imported_before: () => 'imported before (the same entry is in the workspace)',
} satisfies Record<string, (v: Values) => string>;

export type ImportProblem = keyof typeof ENGLISH;

export const IMPORT_PROBLEMS = Object.keys(ENGLISH) as ImportProblem[];

/** A problem as the API writes it: the English, the word, and the values it names (none: no `values`). */
export function said(problem: ImportProblem, values: Values = {}): { message: string; problem: ImportProblem; values?: Values } {
  return { message: ENGLISH[problem](values), problem, ...(Object.keys(values).length ? { values } : {}) };
}

/** A line of the file and what is wrong with it, or what the import warns of there. */
export type LineProblem = { line: number } & ReturnType<typeof said>;

export const lineProblem = (line: number, problem: ImportProblem, values?: Values): LineProblem => ({ line, ...said(problem, values) });

/** A field that cannot be read; the parser turns it into a LineProblem of its line. */
export class RowProblem extends Error {
  constructor(
    readonly problem: ImportProblem,
    readonly values: Values = {},
  ) {
    super(ENGLISH[problem](values));
  }
}
