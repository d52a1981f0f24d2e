import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { choicesQuery, listQuery, projectQuery, taskAssignmentsQuery, userAssignmentsQuery } from './api.ts';
import { filterOf, queryOf } from './filters.ts';

/**
 * /projects (the list, its search and filters in the URL), /projects/new (the form) and
 * /projects/:id (the project: its form, tasks, people and rate history). One lazy chunk per
 * page; loaders fetch in parallel with the chunk. The people are asked for only when the
 * choices say the caller manages the project (one step after, never a 403 to show); the rate
 * history when the person opens it (a page load stays within the budget of 6 API calls).
 */
const loadList = (queryClient: QueryClient) => async ({ request }: LoaderFunctionArgs) => {
  await Promise.all([queryClient.prefetchQuery(listQuery(queryOf(filterOf(new URL(request.url).searchParams)))), queryClient.prefetchQuery(choicesQuery())]);
  return null;
};

const loadNew = (queryClient: QueryClient) => async () => {
  await queryClient.prefetchQuery(choicesQuery());
  return null;
};

const loadProject = (queryClient: QueryClient) => async ({ params }: LoaderFunctionArgs) => {
  const id = params.id!;
  const choices = queryClient.fetchQuery(choicesQuery(id)).catch(() => null);
  await Promise.all([
    queryClient.prefetchQuery(projectQuery(id)),
    queryClient.prefetchQuery(taskAssignmentsQuery(id)),
    choices.then((c) => (c?.may.update ? queryClient.prefetchQuery(userAssignmentsQuery(id)) : null)),
  ]);
  return null;
};

export const projectsRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'projects',
    children: [
      { index: true, loader: loadList(queryClient), lazy: () => import('./ProjectsPage.tsx').then((m) => ({ Component: m.ProjectsPage })) },
      { path: 'new', loader: loadNew(queryClient), lazy: () => import('./NewProjectPage.tsx').then((m) => ({ Component: m.NewProjectPage })) },
      { path: ':id', loader: loadProject(queryClient), lazy: () => import('./ProjectPage.tsx').then((m) => ({ Component: m.ProjectPage })) },
    ],
  },
];
