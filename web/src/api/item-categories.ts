import { queryOptions } from '@tanstack/react-query';
import { api } from './client.ts';
import { call } from './call.ts';

/**
 * The kinds a line may be given (invoices and estimates alike): the workspace's active
 * invoice item categories (their names, as the server matches a line's kind against
 * them). Keyed under ['invoices'], and staled by a change of the categories
 * (stale.ts item_category).
 */
export const kindChoicesQuery = queryOptions({
  queryKey: ['invoices', 'kinds'],
  queryFn: () => call(api.GET('/web/api/item-categories')),
  select: (data) => data.item_categories.filter((c) => c.is_active).map((c) => c.name),
});
