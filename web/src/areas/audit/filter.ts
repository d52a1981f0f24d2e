import { isDate } from '../../ui/dates.ts';
import { AUDIT_KINDS, type AuditFilter, type AuditKind } from './api.ts';

/** The page's filters from its URL (`?person=…&kind=…&from=…&to=…`); anything malformed is left out. */
export function filterOf(params: URLSearchParams): AuditFilter {
  const person = params.get('person');
  const kind = params.get('kind');
  const from = params.get('from');
  const to = params.get('to');
  return {
    ...(person && /^[0-9a-f-]{36}$/i.test(person) ? { person_id: person } : {}),
    ...(kind && (AUDIT_KINDS as readonly string[]).includes(kind) ? { kind: kind as AuditKind } : {}),
    ...(isDate(from) ? { from } : {}),
    ...(isDate(to) ? { to } : {}),
  };
}

/** The URL's search of a filter (the inverse of filterOf). */
export function searchOf(filter: AuditFilter): string {
  const params = new URLSearchParams();
  if (filter.person_id) params.set('person', filter.person_id);
  if (filter.kind) params.set('kind', filter.kind);
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  const text = params.toString();
  return text ? `?${text}` : '';
}
