import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, redirect, type LoaderFunctionArgs } from 'react-router';
import { isUnauthorized } from '../api/errors.ts';
import { sessionQuery } from '../api/session.ts';
import { homeRoutes } from '../areas/home/routes.tsx';
import { signedInRoutes, signedOutRoutes, welcomeRoute } from '../areas/sessions/routes.tsx';
import { settingsRoutes } from '../areas/settings/routes.tsx';
import { invoiceSettingsRoutes } from '../areas/invoice-settings/routes.tsx';
import { profileRoutes, twoFactorSetupRoute } from '../areas/profile/routes.tsx';
import { credentialsRoutes } from '../areas/credentials/routes.tsx';
import { expenseCategoriesRoutes } from '../areas/expense-categories/routes.tsx';
import { bankAccountsRoutes } from '../areas/bank-accounts/routes.tsx';
import { itemCategoriesRoutes } from '../areas/item-categories/routes.tsx';
import { webhooksRoutes } from '../areas/webhooks/routes.tsx';
import { auditRoutes } from '../areas/audit/routes.tsx';
import { singleSignOnRoutes } from '../areas/single-sign-on/routes.tsx';
import { importRoutes } from '../areas/import/routes.tsx';
import { holidaysRoutes, timeOffRoutes } from '../areas/time-off/routes.tsx';
import { membersRoutes, invitationRoutes } from '../areas/members/routes.tsx';
import { timeRoutes } from '../areas/time/routes.tsx';
import { timerQuery } from '../areas/time/api.ts';
import { expensesRoutes } from '../areas/expenses/routes.tsx';
import { approvalsRoutes } from '../areas/approvals/routes.tsx';
import { planningRoutes } from '../areas/planning/routes.tsx';
import { reportsRoutes } from '../areas/reports/routes.tsx';
import { SaveReportAction, savedReportsRoutes } from '../areas/saved-reports/routes.tsx';
import { invoicesRoutes } from '../areas/invoices/routes.tsx';
import { estimatesRoutes } from '../areas/estimates/routes.tsx';
import { retainersRoutes } from '../areas/retainers/routes.tsx';
import { clientsRoutes } from '../areas/clients/routes.tsx';
import { tasksRoutes } from '../areas/tasks/routes.tsx';
import { projectsRoutes } from '../areas/projects/routes.tsx';
import { recurringInvoicesRoutes } from '../areas/recurring-invoices/routes.tsx';
import { clientPageRoutes } from '../areas/client-page/routes.tsx';
import { Root } from './Root.tsx';
import { AppShell } from './shell/AppShell.tsx';
import { SettingsLayout } from './shell/SettingsLayout.tsx';
import { NotFound, RootError, RouteError } from './shell/RouteError.tsx';

/**
 * The session gate of every signed-in page: the session is loaded (once; then from
 * the cache) before the page renders, or the browser goes to sign-in and comes back.
 */
const requireSession =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    // The timer bar (a lazy chunk of every page) asks for the running timer only once its code has
    // loaded, after the page's own calls; asked for here, it goes with the session instead.
    if (!queryClient.getQueryData(timerQuery.queryKey)) void queryClient.prefetchQuery(timerQuery);
    try {
      const session = await queryClient.ensureQueryData(sessionQuery);
      // The first start's placeholder owner names themselves before anything else (the password page may come first).
      const path = new URL(request.url).pathname;
      if (session.user.needs_identity && path !== '/welcome' && path !== '/settings/password') {
        return redirect(`/welcome${path === '/' ? '' : `?next=${encodeURIComponent(path)}`}`);
      }
      // The workspace requires two-factor sign-in and they have none: setting it up comes first (the server refuses the rest).
      if (session.two_factor.enrolment_required && path !== '/two-factor-setup') {
        return redirect(`/two-factor-setup${path === '/' ? '' : `?next=${encodeURIComponent(path)}`}`);
      }
      return null;
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
      const url = new URL(request.url);
      const next = url.pathname === '/' ? '' : `?next=${encodeURIComponent(url.pathname + url.search)}`;
      return redirect(`/sign-in${next}`);
    }
  };

/** The routes: one lazy chunk per page, areas composed here (areas never import each other). */
export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter([
    {
      id: 'root',
      Component: Root,
      ErrorBoundary: RootError,
      HydrateFallback: () => null,
      children: [
        ...signedOutRoutes(queryClient),
        ...invitationRoutes(queryClient),
        ...clientPageRoutes(),
        { ...welcomeRoute, loader: requireSession(queryClient) },
        { ...twoFactorSetupRoute, loader: requireSession(queryClient) },
        {
          id: 'signed-in',
          loader: requireSession(queryClient),
          Component: AppShell,
          children: [
            {
              // Errors of a page show inside the shell, so the navigation stays.
              ErrorBoundary: RouteError,
              children: [
                ...homeRoutes(queryClient),
                ...timeRoutes(queryClient),
                ...expensesRoutes(queryClient),
                ...approvalsRoutes(queryClient),
                ...planningRoutes(queryClient),
                ...timeOffRoutes(queryClient),
                ...clientsRoutes(queryClient),
                ...tasksRoutes(queryClient),
                ...projectsRoutes(queryClient),
                ...reportsRoutes(queryClient, { pages: savedReportsRoutes(queryClient), saveAction: SaveReportAction }),
                ...invoicesRoutes(queryClient),
                ...recurringInvoicesRoutes(queryClient),
                ...estimatesRoutes(queryClient),
                ...retainersRoutes(queryClient),
                { path: 'settings', loader: () => redirect('/settings/workspace') },
                { Component: SettingsLayout, children: [
                    ...profileRoutes(queryClient),
                    ...settingsRoutes(queryClient),
                    ...credentialsRoutes(queryClient),
                    ...expenseCategoriesRoutes(queryClient),
                    ...membersRoutes(queryClient),
                    ...signedInRoutes,
                    ...bankAccountsRoutes(queryClient),
                    ...itemCategoriesRoutes(queryClient),
                    ...invoiceSettingsRoutes(queryClient),
                    ...webhooksRoutes(queryClient),
                    ...auditRoutes(queryClient),
                    ...singleSignOnRoutes(queryClient),
                    ...importRoutes(queryClient),
                    ...holidaysRoutes(queryClient),
                  ], },
                { path: '*', Component: NotFound },
              ],
            },
          ],
        },
      ],
    },
  ]);
}
