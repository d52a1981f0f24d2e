import type { FormEvent } from 'react';

/** The text fields of a submitted form, by name (the names are the API's property names). */
export function fieldsOf(event: FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  const fields: Record<string, string> = {};
  new FormData(event.currentTarget).forEach((value, name) => {
    if (typeof value === 'string') fields[name] = value;
  });
  return fields;
}
