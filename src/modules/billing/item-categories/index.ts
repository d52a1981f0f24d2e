/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { presentItemCategory } from './presenter.ts';
export type { PresentedItemCategory } from './presenter.ts';
export { BUILTIN_CATEGORIES, PRODUCT_CATEGORY, SERVICE_CATEGORY, categoryName, matchKind, sameName } from './rules.ts';
export { activeKindNames, createItemCategory, listItemCategories, resolveItemCategory, seedItemCategories, updateItemCategory } from './service.ts';
export { itemCategoriesWebRoutes } from './web-routes.ts';
