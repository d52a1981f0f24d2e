import type { RouteObject } from 'react-router';

/**
 * /c#<token>: a client's page of one invoice, opened from the link in its e-mail,
 * without signing in. Outside the session gate; its own chunk.
 */
export const clientPageRoutes = (): RouteObject[] => [
  { path: 'c', lazy: () => import('./ClientPage.tsx').then((m) => ({ Component: m.ClientPage })) },
];
