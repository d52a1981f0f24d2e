import type { RouteObject } from 'react-router';

export const homeRoutes: RouteObject[] = [{ index: true, lazy: () => import('./HomePage.tsx').then((m) => ({ Component: m.HomePage })) }];
