import { badRequest } from '../../../errors.ts';
import type { ContactInput } from './schemas.ts';
import { isEmailAddress } from '../../../email-address.ts';

/**
 * Pure rules for contacts: the properties of a new contact and their limits
 * (the same limits as the table's checks, but as a 400 naming the field).
 */

export interface ContactValues {
  first_name: string;
  last_name: string;
  title: string | null;
  email: string | null;
  phone_office: string | null;
  phone_mobile: string | null;
  fax: string | null;
}

export const CONTACT_LIMITS = {
  first_name: 255,
  last_name: 255,
  title: 255,
  email: 320,
  phone_office: 64,
  phone_mobile: 64,
  fax: 64,
} as const;

/** Response properties a request body may not set. */
export const CONTACT_READ_ONLY = ['id', 'client', 'created_at', 'updated_at'] as const;

/** Optional text: trimmed, blank is null; too long is a 400 naming the field. */
function optionalText(field: keyof typeof CONTACT_LIMITS, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (text.length > CONTACT_LIMITS[field]) throw badRequest(`${field} must be at most ${CONTACT_LIMITS[field]} characters.`, { field });
  return text === '' ? null : text;
}

/** Checks a new contact and returns the values to store; throws a 400 naming the field. */
export function contactValues(input: ContactInput): ContactValues {
  const first = typeof input.first_name === 'string' ? input.first_name.trim() : '';
  if (!first || first.length > CONTACT_LIMITS.first_name) {
    throw badRequest('first_name must be 1 to 255 characters, not blank.', { field: 'first_name' });
  }
  const email = optionalText('email', input.email);
  if (email !== null && !isEmailAddress(email)) throw badRequest('email must be a valid e-mail address.', { field: 'email' });
  return {
    first_name: first,
    last_name: optionalText('last_name', input.last_name) ?? '',
    title: optionalText('title', input.title),
    email,
    phone_office: optionalText('phone_office', input.phone_office),
    phone_mobile: optionalText('phone_mobile', input.phone_mobile),
    fax: optionalText('fax', input.fax),
  };
}
