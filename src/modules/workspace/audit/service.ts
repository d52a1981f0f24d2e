import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { newId } from '../../../ids.ts';

export interface AuditEntry {
  companyId: string;
  action: string;
  subjectType: string;
  subjectId?: string | null;
  actorUserId?: string | null;
  credentialId?: string | null;
  details?: Record<string, unknown>;
}

/** Appends to the workspace's audit log, in the caller's transaction. */
export async function audit(trx: Kysely<DB> | Transaction<DB>, entry: AuditEntry) {
  await trx
    .insertInto('audit_logs')
    .values({
      company_id: entry.companyId,
      id: newId(),
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId ?? null,
      actor_user_id: entry.actorUserId ?? null,
      credential_id: entry.credentialId ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
