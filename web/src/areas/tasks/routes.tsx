import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { tasksQuery } from './api.ts';
import { apiQuery, filterOf } from './filters.ts';

/** /tasks: the workspace's task catalog (status and page in the URL); one lazy chunk, loaded with its data in parallel. */
const loadList = (queryClient: QueryClient) => ({ request }: LoaderFunctionArgs) =>
  guardMemberPage(queryClient, () => queryClient.prefetchQuery(tasksQuery(apiQuery(filterOf(new URL(request.url).searchParams)))));

export const tasksRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: 'tasks', loader: loadList(queryClient), lazy: () => import('./TasksPage.tsx').then((m) => ({ Component: m.TasksPage })) },
];
