/** A person's name as one line: first and last name, whichever are set. */
export const fullName = (u: { first_name: string; last_name: string }) => [u.first_name, u.last_name].filter(Boolean).join(' ');
