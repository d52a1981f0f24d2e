import type { ValidationResult } from 'react-aria-components';

/** What a field takes, for the browser's check that failed: its input type, or a choice among options. */
export type FieldKind = 'text' | 'email' | 'url' | 'number' | 'choice' | 'date';

/** The keys of ui's `invalid` texts: what a failed browser check says. */
export type InvalidText = 'missing' | 'choose' | 'email' | 'url' | 'number' | 'wholeNumber' | 'tooSmall' | 'tooLarge' | 'tooLong' | 'tooShort' | 'form' | 'other';

/**
 * The message an invalid field shows. React Aria's native validation gives the browser's own
 * `validationMessage`, in the browser's language ("Please fill out this field." to a person whose
 * profile says German), so a failed browser check is said from our catalog (`say`), by which
 * check failed. A custom error (a `validate` rule, or the server's refusal of the field) is ours
 * already and is shown as it is.
 */
export function invalidMessage({ validationDetails: v, validationErrors }: ValidationResult, kind: FieldKind, say: (key: InvalidText) => string): string {
  if (v.customError || !browserRefused(v)) return validationErrors.join(' ');
  if (v.valueMissing) return say(kind === 'choice' ? 'choose' : 'missing');
  // A date picker's other checks (before the first or after the last date allowed) are React
  // Aria's own, said in the app's language already.
  if (kind === 'date') return validationErrors.join(' ');
  if (v.typeMismatch) return say(kind === 'email' || kind === 'url' ? kind : 'other');
  if (v.badInput) return say(kind === 'number' ? 'number' : 'other');
  // Sheaf's number inputs keep the default step of 1.
  if (v.stepMismatch) return say('wholeNumber');
  if (v.rangeUnderflow) return say('tooSmall');
  if (v.rangeOverflow) return say('tooLarge');
  if (v.tooLong) return say('tooLong');
  if (v.tooShort) return say('tooShort');
  if (v.patternMismatch) return say(kind === 'email' || kind === 'url' ? kind : 'form');
  return say('other');
}

/** Whether one of the browser's checks failed (a DOM ValidityState's flags are getters, so each is read). */
const browserRefused = (v: ValidityState) =>
  v.valueMissing || v.typeMismatch || v.badInput || v.stepMismatch || v.rangeUnderflow || v.rangeOverflow || v.tooLong || v.tooShort || v.patternMismatch;
