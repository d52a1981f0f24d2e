/**
 * The invoice number format (issue 25 item 1): a pattern such as `{YYYY}-{NNNN}`
 * or `INV-{NNNNN}`. `{YYYY}` is the invoice's issue year, `{N…}` (one to nine
 * N) the sequence number zero-padded to that many digits (a larger number just
 * grows); everything else is printed as written (the prefix and separators).
 * No imports: the web app uses this module too (the settings page's live example).
 */

export const NUMBER_FORMAT_MAX = 40;
export const NEXT_NUMBER_MAX = 999_999_999;
export const YEAR_TOKEN = '{YYYY}';

/** Why a format is not one, or null when it is. */
export function numberFormatProblem(format: string): string | null {
  if (format.trim() !== format || format.length === 0) return 'must not be blank or start or end with spaces';
  if (format.length > NUMBER_FORMAT_MAX) return `must be at most ${NUMBER_FORMAT_MAX} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(format)) return 'must not contain control characters';
  const tokens = format.match(/\{[^{}]*\}/g) ?? [];
  const sequence = tokens.filter((t) => /^\{N{1,9}\}$/.test(t));
  if (sequence.length !== 1) return 'must contain the sequence number once, as {N} to {NNNNNNNNN}';
  if (tokens.filter((t) => t === YEAR_TOKEN).length > 1) return 'may contain {YYYY} only once';
  const unknown = tokens.find((t) => t !== YEAR_TOKEN && !/^\{N{1,9}\}$/.test(t));
  if (unknown) return `has an unknown placeholder ${unknown} (use {YYYY} and {NNNN})`;
  if (format.replace(/\{[^{}]*\}/g, '').includes('{') || format.replace(/\{[^{}]*\}/g, '').includes('}')) {
    return 'has an unmatched { or }';
  }
  return null;
}

export const hasYear = (format: string) => format.includes(YEAR_TOKEN);

/** The number a format gives for a year and sequence number. */
export function formatInvoiceNumber(format: string, year: number, sequence: number): string {
  return format.replace(/\{(YYYY|N{1,9})\}/g, (_, token: string) =>
    token === 'YYYY' ? String(year).padStart(4, '0') : String(sequence).padStart(token.length, '0'),
  );
}

/**
 * A PostgreSQL regular expression matching the numbers a format gives for one
 * year, capturing the sequence number (to find the largest one already taken).
 */
export function numberPattern(format: string, year: number): string {
  const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\{}-]/g, '\\$&');
  const parts = format.split(/(\{YYYY\}|\{N{1,9}\})/);
  return `^${parts.map((p) => (p === YEAR_TOKEN ? String(year).padStart(4, '0') : /^\{N+\}$/.test(p) ? '([0-9]{1,18})' : escape(p))).join('')}$`;
}

/**
 * The sequence number the next invoice of `year` starts from: the stored next
 * number, or 1 when the sequence restarts every year and `year` is not the year
 * it belongs to. (The caller still skips numbers already taken.)
 */
export function sequenceStart(settings: { next_number: number; yearly_reset: boolean; number_year: number | null }, year: number): number {
  if (settings.yearly_reset && settings.number_year !== null && settings.number_year !== year) return 1;
  return settings.next_number;
}
