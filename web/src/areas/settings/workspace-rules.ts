/** What the workspace form checks before it sends (the server checks again; its message wins). */

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

export function workspaceProblems(body: { name?: string; currency?: string; timezone?: string; rounding_minutes?: number }): Record<string, string> {
  const problems: Record<string, string> = {};
  if (body.name !== undefined && !body.name) problems.name = 'Enter a name.';
  if (body.currency !== undefined && !/^[A-Z]{3}$/.test(body.currency)) problems.currency = 'Enter a three-letter currency code, such as EUR.';
  if (body.timezone !== undefined && !isValidTimeZone(body.timezone)) problems.timezone = 'Enter an IANA time zone, such as Europe/Berlin.';
  const m = body.rounding_minutes;
  if (m !== undefined && !(Number.isInteger(m) && m >= 1 && m <= 60)) problems.rounding_minutes = 'Enter whole minutes from 1 to 60.';
  return problems;
}
