import { formatMoney } from '../money.ts';

/** CLI output: human-readable lines by default, one JSON document with --json. */
export interface Output {
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
  /** stdout is a terminal (a person reads it, not a log collector). */
  tty?: boolean;
}

export function print(o: Output, value: unknown, human: () => string) {
  o.out(o.json ? JSON.stringify(value, null, 2) : human());
}

const cell = (v: unknown) =>
  v === null || v === undefined || v === '' ? '-' : v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') || '-' : String(v);

/** Aligned columns for lists of records. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/**
 * A record for human output with the amounts named in `keys` as text in the
 * currency's minor units (`4812.40`, not `4812.4`); empty amounts stay empty.
 * --json output keeps the API's numbers.
 */
export function withMoney<T extends Record<string, unknown>>(record: T, currency: string, keys: Array<keyof T & string>): T {
  const copy: Record<string, unknown> = { ...record };
  for (const k of keys) {
    const v = record[k];
    if (typeof v === 'number' || (typeof v === 'string' && v !== '')) copy[k] = formatMoney(v, currency);
  }
  return copy as T;
}

/** One record as `name  value` lines. */
export function fields(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  return Object.entries(record)
    .map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`)
    .join('\n');
}

/** `text` broken at spaces into lines of at most `room` characters (a longer word gets a line of its own). */
export function wrapText(text: string, room: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > room) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}

/**
 * Help rows: the left column padded to its longest entry, the right one
 * wrapped at word boundaries to `width` characters with continuation lines
 * indented under it, so every row of a listing starts its text in one column.
 */
export function helpRows(rows: Array<[left: string, right: string]>, width = 100): string {
  const left = Math.max(0, ...rows.map(([l]) => l.length));
  const indent = ' '.repeat(2 + left + 2);
  return rows
    .map(([l, r]) => {
      const [first, ...more] = wrapText(r, Math.max(20, width - indent.length));
      return [`  ${l.padEnd(left)}  ${first}`.trimEnd(), ...more.map((t) => indent + t)].join('\n');
    })
    .join('\n');
}

/**
 * Bad command-line input (unknown command or option, malformed value): printed
 * without a stack, exit code 2. `usage` is the offending command's usage line.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/**
 * A refusal another Sheaf server answered (the backup commands are its HTTP
 * clients): reported like the service's own ApiError, with the server's code
 * (any string: that server may be another version) and status.
 */
export class ServerRefusal extends Error {
  readonly extras: Record<string, unknown> = {};
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}
