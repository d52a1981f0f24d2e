/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { presentTask } from './presenter.ts';
export { findTask } from './queries.ts';
export type { ProjectScope } from './queries.ts';
export { tasksRoutes } from './routes.ts';
export { NEW_TASK, applyTaskInput } from './rules.ts';
export type { TaskInput } from './schemas.ts';
export { createTask, listTasks, maySeeProjectBudget, projectScopeOrThrow, resolveTask, updateTask } from './service.ts';
