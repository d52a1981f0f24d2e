import type { ItemCategoryRow } from './queries.ts';

/** An invoice item category as the web app and `sheaf admin` show it. */
export function presentItemCategory(row: ItemCategoryRow) {
  return {
    id: row.id,
    name: row.name,
    is_builtin: row.is_builtin,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedItemCategory = ReturnType<typeof presentItemCategory>;
