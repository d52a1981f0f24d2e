import { sql, type Expression, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * Who is whose teammate (teammate_assignments): a manager approves, sees and
 * writes the time and expenses of the teammates assigned to them. The condition
 * that the visibility of time, the approval reach, the approvers of a submission
 * and the writes of time and expenses share (people/teammates maintains the rows).
 */

/** A value, or a column of the outer query (`sql.ref('m.user_id')`). */
type Operand = string | Expression<string | null>;

/** SQL condition: in the workspace `companyId`, `teammate` is assigned to the manager `manager`. */
export function teammateOf(eb: ExpressionBuilder<any, any>, companyId: Operand, manager: Operand, teammate: Operand) {
  return eb.exists(
    eb
      .selectFrom('teammate_assignments as tm_ta')
      .select(sql`1`.as('one'))
      .where('tm_ta.company_id', '=', companyId)
      .where('tm_ta.manager_id', '=', manager)
      .where('tm_ta.teammate_id', '=', teammate),
  );
}

/** Whether `teammateId` is assigned as a teammate to the manager `managerId`. */
export async function isTeammateOf(db: Kysely<DB> | Transaction<DB>, companyId: string, managerId: string, teammateId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => teammateOf(eb, companyId, managerId, teammateId).as('teammate'))
    .executeTakeFirstOrThrow();
  return Boolean(row.teammate);
}
