import { badRequest } from '../../../errors.ts';

/**
 * Pure rules for invoice item categories (issue 25 item 3): the names a line's
 * `kind` may take. No I/O.
 *
 * - Every workspace has the built-in Service (the API's default kind) and Product;
 *   they are never renamed or archived, so the default always names a category.
 * - Names are unique in the workspace ignoring case, 1 to 64 characters (a line's
 *   kind holds 64).
 * - A kind sent for a line matches an active category ignoring case and surrounding
 *   spaces, and is stored as the category's own spelling ("service" → "Service").
 */

export const SERVICE_CATEGORY = 'Service';
export const PRODUCT_CATEGORY = 'Product';
export const BUILTIN_CATEGORIES: readonly string[] = [SERVICE_CATEGORY, PRODUCT_CATEGORY];

export const CATEGORY_NAME_MAX = 64;

/** A category name as given: trimmed, 1..64 characters, one line, no NUL (400 naming `name`). */
export function categoryName(value: unknown, field = 'name'): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name || name.length > CATEGORY_NAME_MAX) throw badRequest(`${field} must be 1 to ${CATEGORY_NAME_MAX} characters, not blank.`, { field });
  // One line of text: line breaks and control characters (NUL among them) are refused.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest(`${field} must be a single line of text.`, { field });
  return name;
}

/** The two names are the same category name (ignoring case and surrounding spaces). */
export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The active category a sent kind names, as the category spells it; 400 naming
 * `field` (e.g. `line_items.0.kind`) with the choices when none does.
 */
export function matchKind(activeNames: readonly string[], kind: string, field: string): string {
  const found = activeNames.find((name) => sameName(name, kind));
  if (found !== undefined) return found;
  const choices = activeNames.map((n) => `'${n}'`).join(', ');
  throw badRequest(`${field} must name an active invoice item category (${choices}); '${kind.trim()}' is none.`, { field });
}
