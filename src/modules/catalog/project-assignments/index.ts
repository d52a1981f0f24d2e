/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export type { ProjectAssignmentRow } from './queries.ts';
export { projectAssignmentsRoutes } from './routes.ts';
export { validateProjectAssignmentInput } from './rules.ts';
export type { ProjectAssignmentInput } from './rules.ts';
export { addProjectAssignment, deleteProjectUserAssignment, listProjectAssignments, updateProjectAssignment } from './service.ts';
