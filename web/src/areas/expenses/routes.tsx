import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { choicesQuery, expenseQuery, sheetQuery } from './api.ts';
import { filterOf } from './filters.ts';

/**
 * /expenses (the list, its filters in the URL), /expenses/new and /expenses/:id (the
 * form): one lazy chunk per page; the loaders fetch in parallel with the chunk
 * (failures show on the page, inside the shell).
 */
const loadList = (queryClient: QueryClient) => ({ request }: LoaderFunctionArgs) =>
  guardMemberPage(queryClient, () => queryClient.prefetchQuery(sheetQuery(filterOf(new URL(request.url).searchParams))));

const loadForm = (queryClient: QueryClient) => ({ params }: LoaderFunctionArgs) =>
  guardMemberPage(queryClient, () =>
    Promise.all([queryClient.prefetchQuery(choicesQuery(params.id)), params.id ? queryClient.prefetchQuery(expenseQuery(params.id)) : null]),
  );

const formPage = () => import('./ExpenseFormPage.tsx').then((m) => ({ Component: m.ExpenseFormPage }));

export const expensesRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'expenses',
    children: [
      { index: true, loader: loadList(queryClient), lazy: () => import('./ExpensesPage.tsx').then((m) => ({ Component: m.ExpensesPage })) },
      { path: 'new', loader: loadForm(queryClient), lazy: formPage },
      { path: ':id', loader: loadForm(queryClient), lazy: formPage },
    ],
  },
];
