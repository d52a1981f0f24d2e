import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

export function membersRoutes(_queryClient: QueryClient): RouteObject[] {
  return [];
}
export function invitationRoutes(_queryClient: QueryClient): RouteObject[] {
  return [];
}
