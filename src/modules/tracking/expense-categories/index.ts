/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { expenseCategoriesRoutes } from './routes.ts';
export { LLM_USAGE_CATEGORY, applyCategoryInput } from './rules.ts';
export type { CategoryInput, CategoryState } from './rules.ts';
export { createCategory, findCategory, listCategories, presentCategory, resolveCategory, seedExpenseCategories, updateCategory } from './service.ts';
