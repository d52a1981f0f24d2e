import type { WebEntry } from './api.ts';
import { timeTexts as t } from './texts.ts';

/**
 * Why an entry cannot be changed, in the week grid's words and in a sentence with what
 * resolves it (one place: the week grid, the day view, the entry editor and the calendar
 * read it). The server's rule (docs/decisions.md, "Time entries", Locks and Week lock):
 * billed or approved entries refuse every change; a week holding an approved entry of
 * the person refuses changes to all of that person's time in it. Submitted and rejected
 * entries stay editable. The words are in the person's language (texts.ts).
 */
export interface Lock {
  /** What a grid cell says under its hours. */
  short: string;
  /** The sentence beside a read-only entry. */
  reason: string;
}

export type LockEntry = Pick<WebEntry, 'is_locked' | 'is_closed' | 'is_billed'>;

export function lockOf(entry: LockEntry, weekApproved = false): Lock | null {
  // Billed first: withdrawing an approval would not open a billed entry (the server answers "billed" too).
  if (entry.is_billed) return { short: t('lock.billedShort'), reason: t('lock.billed') };
  if (entry.is_closed || entry.is_locked) return { short: t('lock.approvedShort'), reason: t('lock.approved') };
  if (weekApproved) return { short: t('lock.weekShort'), reason: t('lock.week') };
  return null;
}

/**
 * Whether a person's week is approved: any approved entry of theirs in it locks it. `entries`
 * are one person's week (a sheet's). An approved expense locks the week too, which the sheet
 * does not show: the server's 409 says so then.
 */
export const weekApproved = (entries: readonly Pick<WebEntry, 'is_closed'>[]) => entries.some((e) => e.is_closed);
