/**
 * Invoice line kinds and how they read to people. Which kinds a person may give a
 * line is the workspace's item categories (billing/item-categories, the one list);
 * these are the kinds Sheaf writes itself: the default, the built-in category
 * Service (item-categories/rules.ts SERVICE_CATEGORY, checked equal by a test), and
 * the imported lines' kinds, kept as the import writes them. The API keeps the spec's values (an
 * imported time line is `SERVICE`, upper-cased as the spec's responses show it; a typed
 * line defaults to `Service`), while every place a person reads a kind (the web app's
 * invoice and edit pages, the PDF) shows the label, so "SERVICE" never sits beside
 * "Expense". No imports: the web app uses this module too (one label function).
 */
export const IMPORTED_TIME_KIND = 'SERVICE';
export const IMPORTED_EXPENSE_KIND = 'Expense';
export const DEFAULT_KIND = 'Service';
/** The other built-in item category (item-categories/rules.ts PRODUCT_CATEGORY): translated like Service where people read it. */
export const PRODUCT_KIND = 'Product';
/** The kind of a line linked to a retainer (billing/retainers): its funding line, or a credit drawing on it. */
export const RETAINER_KIND = 'Retainer';

/** The kind as people read it: the imported time kind as the default one; any other kind as typed. */
export const kindLabel = (kind: string) => (kind === IMPORTED_TIME_KIND ? DEFAULT_KIND : kind);
