import type { Principal } from '../../../auth/principal.ts';
import { seesAllTime, seesManagedTime } from '../../../access/time.ts';
import type { Tx } from '../../../db/tenant.ts';
import { ApiError, forbidden } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { peopleNamed } from './queries.ts';

/**
 * Whose week the timesheet shows, or whose expenses the expense list shows (`user_id`,
 * the caller's when absent). The records are then listed with the caller's own
 * visibility (timeRecordVisible, as GET /api/v2/time_entries?user_id= and
 * /api/v2/expenses?user_id= do): an administrator sees all of the person's, a
 * manager their teammate's and those on projects they manage. Only the answer for a
 * caller who can see no one else's time differs from the API's (an empty list there):
 * 403 here, so the page says so instead of showing an empty week as if it were theirs.
 */
export async function sheetPerson(trx: Tx, p: Principal, userId: string | undefined) {
  const id = userId?.toLowerCase() ?? p.userId;
  const unknown = () => new ApiError('not_found', 'This person was not found in this workspace.', { field: 'user_id' });
  if (!isId(id)) throw unknown();
  if (id !== p.userId && !seesAllTime(p) && !seesManagedTime(p)) throw forbidden('You may see only your own time and expenses.');
  const person = (await peopleNamed(trx, p.companyId, [id])).get(id);
  if (!person) throw unknown();
  return { id, name: person.name };
}
