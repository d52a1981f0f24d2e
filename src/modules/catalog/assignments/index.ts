/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { presentRate } from './presenter.ts';
export type { AssignmentView } from './presenter.ts';
export { assignmentsPage } from './routes.ts';
export { assignmentReadOnly, changedAssignmentColumns, duplicateAs, parseAssignmentBody } from './rules.ts';
export type { AssignmentColumns, AssignmentRateInput, RateChange } from './rules.ts';
export { AssignmentsQuery, BudgetProperty, ProjectParams, RateProperties, budgetField, hourlyRateField } from './schemas.ts';
export { writeAssignmentRate } from './service.ts';
export type { RateSet } from './service.ts';
export { insertUserAssignment } from './queries.ts';
