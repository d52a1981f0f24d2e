/** CLI output: human-readable lines by default, one JSON document with --json. */
export interface Output {
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export function print(o: Output, value: unknown, human: () => string) {
  o.out(o.json ? JSON.stringify(value, null, 2) : human());
}

/** Aligned columns for lists of records. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

export function fields(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  return Object.entries(record)
    .map(([k, v]) => `${k.padEnd(width)}  ${v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : v ?? '-'}`)
    .join('\n');
}

/** Bad command-line input: printed without a stack, exit code 2. */
export class UsageError extends Error {}
