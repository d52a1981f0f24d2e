import { badRequest } from '../errors.ts';

/**
 * Countries as ISO 3166-1 alpha-2 codes (e-invoice addresses, BT-40 and BT-55).
 * Intl knows the assigned codes: for a code it cannot name it returns the code
 * itself. The user-assigned and reserved ranges (AA, QM–QZ, XA–XZ, ZZ), the grouping
 * codes ICU still names (EU, EZ, UN, QO), and the withdrawn (DD, SU, YU, …) and exceptionally
 * reserved (UK, IC, …) codes ICU names as a country of today are not countries: an e-invoice
 * naming one fails EN 16931's country list.
 */
const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const NOT_COUNTRIES = /^(AA|Q[M-Z]|X[A-Z]|ZZ|EU|EZ|UN|AN|BU|CS|DD|DY|FX|HV|NH|RH|SU|TP|VD|YD|YU|ZR|UK|AC|CP|DG|EA|IC|TA)$/;

/** XI (Northern Ireland) is the one user-assigned code EN 16931's country list takes (VAT after Brexit). */
export function isCountryCode(value: string): boolean {
  if (value === 'XI') return true;
  if (!/^[A-Z]{2}$/.test(value) || NOT_COUNTRIES.test(value)) return false;
  return names.of(value) !== value;
}

/** A country given as its code in any case: trimmed and upper-cased; null or blank clears it; anything else is a 400 naming the field. */
export function countryCodeValue(field: string, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string or null.`, { field });
  const code = value.trim().toUpperCase();
  if (code === '') return null;
  if (!isCountryCode(code)) throw badRequest(`${field} must be a two-letter ISO 3166-1 country code such as DE or FR.`, { field });
  return code;
}
