import type { Tx } from '../../../db/tenant.ts';

/** Inserts an assignment; false when the person is already assigned to the project. */
export async function insertUserAssignment(
  trx: Tx,
  companyId: string,
  row: { projectId: string; userId: string; isProjectManager: boolean; isActive: boolean; budget: string | null },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('project_user_assignments')
    .values({
      company_id: companyId,
      project_id: row.projectId,
      user_id: row.userId,
      is_project_manager: row.isProjectManager,
      is_active: row.isActive,
      budget: row.budget,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['company_id', 'project_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
