import type { Tx } from '../../../db/tenant.ts';

/**
 * Assigns a person to a project; false when they already are. Unless `columns` say otherwise, the
 * assignment is active, without a budget, and not the project's manager.
 */
export async function insertUserAssignment(
  trx: Tx,
  companyId: string,
  projectId: string,
  userId: string,
  columns: { is_project_manager?: boolean; is_active?: boolean; budget?: string | null },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('project_user_assignments')
    .values({
      company_id: companyId,
      project_id: projectId,
      user_id: userId,
      is_project_manager: columns.is_project_manager ?? false,
      is_active: columns.is_active ?? true,
      budget: columns.budget ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['company_id', 'project_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
