import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AuditRow } from './queries.ts';
import { AUDIT_KIND_NAMES, inZone, kindsOf, type AuditKind } from './rules.ts';
import type { Column, Row } from '../../../http/exports.ts';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const AuditKindSchema = Type.Union(AUDIT_KIND_NAMES.map((k) => Type.Literal(k)));

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    occurred_at: Type.String({ format: 'date-time' }),
    action: Type.String({ description: 'The action code, e.g. invoice.send; the web app words it (an unknown one shows as the code).' }),
    kinds: Type.Array(AuditKindSchema),
    actor: Type.Object(
      {
        type: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('operator')], {
          description: 'user: a person in the web app; key: an API key (its label and whose it is); operator: `sheaf admin`, or Sheaf itself (schedules).',
        }),
        user_id: Nullable(Type.String()),
        name: Nullable(Type.String({ description: 'The person\u2019s name, as it is now.' })),
        key_id: Nullable(Type.String()),
        key_label: Nullable(Type.String({ description: 'The key\u2019s name, else its prefix.' })),
      },
      { additionalProperties: false },
    ),
    subject: Type.Object(
      {
        type: Type.String(),
        id: Nullable(Type.String()),
        label: Nullable(Type.String({ description: 'A person\u2019s name, an invoice\u2019s number, a project\u2019s name\u2026; null when unknown.' })),
      },
      { additionalProperties: false },
    ),
    address: Nullable(Type.String({ description: 'The client address of a sign-in, when recorded.' })),
    user_agent: Nullable(Type.String({ description: 'The browser of a sign-in, when recorded.' })),
    details: Type.Record(Type.String(), Type.Unknown(), { description: 'What the action recorded besides (as in the backup\u2019s audit_logs).' }),
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function presentAuditEntry(row: AuditRow): AuditEntry {
  const details = row.details ?? {};
  const name = row.actor_user_id ? [row.actor_first_name, row.actor_last_name].filter(Boolean).join(' ') || null : null;
  return {
    id: row.id,
    occurred_at: row.occurred_at.toISOString(),
    action: row.action,
    kinds: kindsOf(row.action),
    actor: {
      type: row.credential_id ? 'key' : row.actor_user_id ? 'user' : 'operator',
      user_id: row.actor_user_id,
      name,
      key_id: row.credential_id,
      key_label: row.credential_id ? text(row.key_name) ?? text(row.key_prefix) : null,
    },
    subject: { type: row.subject_type, id: row.subject_id, label: row.subject_label },
    address: text(details.address),
    user_agent: text(details.user_agent),
    details,
  };
}

/** The CSV's columns: what the page shows, in words a spreadsheet can filter, and the codes. */
export const AUDIT_CSV_COLUMNS: Column[] = [
  { key: 'occurred_at', header: 'Time' },
  { key: 'actor', header: 'Actor' },
  { key: 'actor_user_id', header: 'Actor user id' },
  { key: 'key', header: 'API key' },
  { key: 'action', header: 'Action' },
  { key: 'kinds', header: 'Kinds' },
  { key: 'subject_type', header: 'Subject type' },
  { key: 'subject_id', header: 'Subject id' },
  { key: 'subject', header: 'Subject' },
  { key: 'address', header: 'Address' },
  { key: 'user_agent', header: 'User agent' },
  { key: 'details', header: 'Details' },
];

/** A CSV row: the time in the workspace's zone with its offset, the details as JSON. */
export function auditCsvRow(entry: AuditEntry, timezone: string): Row {
  return {
    occurred_at: inZone(new Date(entry.occurred_at), timezone),
    actor: entry.actor.type === 'operator' ? 'Operator' : entry.actor.name,
    actor_user_id: entry.actor.user_id,
    key: entry.actor.key_label,
    action: entry.action,
    kinds: entry.kinds.join(' '),
    subject_type: entry.subject.type,
    subject_id: entry.subject.id,
    subject: entry.subject.label,
    address: entry.address,
    user_agent: entry.user_agent,
    details: JSON.stringify(entry.details),
  };
}

export type { AuditKind };
