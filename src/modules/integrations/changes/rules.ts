import { badRequest } from '../../../errors.ts';

/**
 * The change feed's cursor: a position in the feed's order (transaction id, then
 * sequence) and the time it stands for, opaque to clients (base64url). The time is
 * what retention is checked against: a cursor older than the retention may have
 * changes after it that were deleted, so it is refused (410) rather than silently
 * skipping them.
 */

export const RECORD_TYPES = ['time_entries', 'expenses', 'clients', 'projects', 'tasks', 'invoices', 'users'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface Cursor {
  xid: string;
  seq: string;
  /** Milliseconds since the epoch: the last change read, or when the reader was last caught up. */
  at: number;
}

/** Where a feed read without a cursor starts: before every change. */
export const START = (at: number): Cursor => ({ xid: '0', seq: '0', at });

export const encodeCursor = (c: Cursor) => Buffer.from(`v1.${c.xid}.${c.seq}.${c.at}`).toString('base64url');

const DIGITS = /^(0|[1-9]\d{0,19})$/;

/** The cursor of `text`; anything else (not one we handed out) is a 400 naming `cursor`. */
export function decodeCursor(text: string): Cursor {
  const parts = /^[A-Za-z0-9_-]{1,200}$/.test(text) ? Buffer.from(text, 'base64url').toString('utf8').split('.') : [];
  const [version, xid, seq, at] = parts;
  if (parts.length !== 4 || version !== 'v1' || !DIGITS.test(xid) || !DIGITS.test(seq) || !DIGITS.test(at) || !Number.isSafeInteger(Number(at))) {
    throw badRequest('cursor is not a cursor this feed handed out: start again without one, or with the last next_cursor you received.', { field: 'cursor' });
  }
  return { xid, seq, at: Number(at) };
}

/** The record types of `types` (comma-separated; every type when absent); an unknown one is a 400 naming `types`. */
export function parseTypes(types: string | undefined): RecordType[] {
  if (types === undefined) return [...RECORD_TYPES];
  const names = types.split(',').map((t) => t.trim());
  const unknown = names.find((t) => !(RECORD_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined || names.length === 0) {
    throw badRequest(`types must be a comma-separated list of ${RECORD_TYPES.join(', ')}${unknown !== undefined ? `, not '${unknown}'` : ''}.`, { field: 'types' });
  }
  return [...new Set(names)] as RecordType[];
}
