/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { presentAssignment } from './presenter.ts';
export type { PresentedAssignment } from './presenter.ts';
export { taskAssignmentsRoutes } from './routes.ts';
export { parseAssignmentInput } from './rules.ts';
export type { AssignmentInput } from './schemas.ts';
export { assignTask, listTaskAssignments, unassignTask } from './service.ts';
