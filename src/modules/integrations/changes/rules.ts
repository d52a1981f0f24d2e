import { badRequest } from '../../../errors.ts';

/**
 * The change feed's cursor: a position in the feed's order (transaction id, then
 * sequence), opaque to clients (base64url of `v1.<xid>.<seq>`).
 */

export const RECORD_TYPES = ['time_entries', 'expenses', 'clients', 'projects', 'tasks', 'invoices', 'users'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const ACTIONS = ['created', 'updated', 'deleted'] as const;
export type Action = (typeof ACTIONS)[number];

export interface Cursor {
  xid: string;
  seq: string;
}

/** Before every change. */
export const START: Cursor = { xid: '0', seq: '0' };

export const encodeCursor = (c: Cursor) => Buffer.from(`v1.${c.xid}.${c.seq}`).toString('base64url');

const DIGITS = /^(0|[1-9]\d{0,19})$/;
/** xid8 is unsigned 64-bit, seq a bigint: larger numbers are no position of this feed. */
const XID_MAX = 2n ** 64n - 1n;
const SEQ_MAX = 2n ** 63n - 1n;

/** The cursor of `text`; anything else (not one we handed out) is a 400 naming `cursor`. */
export function decodeCursor(text: string): Cursor {
  const parts = /^[A-Za-z0-9_-]{1,200}$/.test(text) ? Buffer.from(text, 'base64url').toString('utf8').split('.') : [];
  const [version, xid, seq] = parts;
  if (parts.length !== 3 || version !== 'v1' || !DIGITS.test(xid) || !DIGITS.test(seq) || BigInt(xid) > XID_MAX || BigInt(seq) > SEQ_MAX) {
    throw badRequest('cursor is not a cursor this feed handed out: start again without one, or with the last next_cursor you received.', { field: 'cursor' });
  }
  return { xid, seq };
}

/** Whether position `a` comes before `b` in the feed's order. */
export const before = (a: Cursor, b: Cursor) => BigInt(a.xid) < BigInt(b.xid) || (a.xid === b.xid && BigInt(a.seq) < BigInt(b.seq));

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
