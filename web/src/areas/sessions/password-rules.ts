import { sessionTexts as t } from './texts.ts';

/** The server's password rule (12 to 256 characters), checked before sending so the message comes at once. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export function passwordProblem(value: string): string | null {
  if (value.length < PASSWORD_MIN) return t('problems.tooShort', { min: PASSWORD_MIN });
  if (value.length > PASSWORD_MAX) return t('problems.tooLong', { max: PASSWORD_MAX });
  return null;
}
