/** The server's password rule (12 to 256 characters), checked before sending so the message comes at once. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export function passwordProblem(value: string): string | null {
  if (value.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (value.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return null;
}
