import { describe, expect, it } from 'vitest';
import { invalidMessage, type FieldKind } from './validity.ts';

const NONE = {
  badInput: false,
  customError: false,
  patternMismatch: false,
  rangeOverflow: false,
  rangeUnderflow: false,
  stepMismatch: false,
  tooLong: false,
  tooShort: false,
  typeMismatch: false,
  valueMissing: false,
  valid: true,
};

/** The message for a field whose one failed check is `flag`, with the browser's English text beside it. */
function messageFor(flag: keyof typeof NONE | null, kind: FieldKind, errors = ['Please fill out this field.']) {
  const details = { ...NONE, ...(flag ? { [flag]: true, valid: false } : {}) };
  return invalidMessage({ isInvalid: !details.valid, validationDetails: details, validationErrors: errors }, kind, (key) => `<${key}>`);
}

describe('invalidMessage', () => {
  it('says a failed browser check from the catalog, never in the browser’s words', () => {
    expect(messageFor('valueMissing', 'text')).toBe('<missing>');
    expect(messageFor('valueMissing', 'choice')).toBe('<choose>');
    expect(messageFor('valueMissing', 'date')).toBe('<missing>');
    expect(messageFor('typeMismatch', 'email')).toBe('<email>');
    expect(messageFor('typeMismatch', 'url')).toBe('<url>');
    expect(messageFor('badInput', 'number')).toBe('<number>');
    expect(messageFor('stepMismatch', 'number')).toBe('<wholeNumber>');
    expect(messageFor('rangeUnderflow', 'number')).toBe('<tooSmall>');
    expect(messageFor('rangeOverflow', 'number')).toBe('<tooLarge>');
    expect(messageFor('tooLong', 'text')).toBe('<tooLong>');
    expect(messageFor('tooShort', 'text')).toBe('<tooShort>');
    expect(messageFor('patternMismatch', 'text')).toBe('<form>');
    expect(messageFor('patternMismatch', 'email')).toBe('<email>');
  });

  it('shows a custom error (a validate rule, the server’s refusal) as it is', () => {
    expect(messageFor('customError', 'text', ['Enter a duration such as 1:30.'])).toBe('Enter a duration such as 1:30.');
    expect(messageFor(null, 'email', ['has already been taken'])).toBe('has already been taken');
  });

  it('keeps a date picker’s own range messages, which React Aria says in the app’s language', () => {
    expect(messageFor('rangeUnderflow', 'date', ['Der Wert muss am oder nach dem 01.12.2026 liegen.'])).toBe('Der Wert muss am oder nach dem 01.12.2026 liegen.');
  });
});
