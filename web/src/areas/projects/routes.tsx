import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardMemberPage, guardPage, isManagerOrAbove } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { mayCreateProjects } from './access.ts';
import { choicesQuery, listQuery, projectQuery, taskAssignmentsQuery, userAssignmentsQuery } from './api.ts';
import { filterOf, queryOf } from './filters.ts';

/**
 * /projects (the list, its search and filters in the URL), /projects/new (the form) and
 * /projects/:id (the project: its form, tasks, people and rate history). One lazy chunk per
 * page; loaders fetch in parallel with the chunk (a page load stays within 6 API calls, at
 * most 2 one after another). The people section shows only when the choices say the caller
 * manages the project; the rate history loads when the person opens it.
 */
const loadList = (queryClient: QueryClient) => ({ request }: LoaderFunctionArgs) => {
  const filter = filterOf(new URL(request.url).searchParams);
  // The filters' choices only when a filter in the URL needs a name shown (else on first opening a filter).
  return guardMemberPage(queryClient, () =>
    Promise.all([queryClient.prefetchQuery(listQuery(queryOf(filter))), filter.client_id || filter.owner_id ? queryClient.prefetchQuery(choicesQuery()) : null]),
  );
};

const loadNew = (queryClient: QueryClient) => async () => {
  // Only those who may create projects: anyone else typing the address is told it is not for their role.
  // The choices are not awaited: the page shows its heading and "Loading…" meanwhile.
  if (await guardPage(queryClient, mayCreateProjects)) void queryClient.prefetchQuery(choicesQuery());
  return null;
};

const loadProject = (queryClient: QueryClient) => ({ params }: LoaderFunctionArgs) => {
  const id = params.id!;
  // Only administrators and the project's managers may list its people; a member never can, so
  // the people wait for the session (already on its way for the gate: two calls in a row at most).
  const people = async () => {
    const session = await queryClient.ensureQueryData(sessionQuery).catch(() => null);
    if (session?.workspace && isManagerOrAbove(session.workspace)) await queryClient.prefetchQuery(userAssignmentsQuery(id));
  };
  return guardMemberPage(queryClient, () =>
    Promise.all([queryClient.prefetchQuery(projectQuery(id)), queryClient.prefetchQuery(taskAssignmentsQuery(id)), queryClient.prefetchQuery(choicesQuery(id)), people()]),
  );
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
