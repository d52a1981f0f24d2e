import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preHandler' | 'onSend' | 'onResponse';

/**
 * Adds a hook to one route as it is registered (from an `onRoute` hook), after
 * the route's own hooks of that kind. Plugins use it so that only the routes
 * that need a hook pay for it.
 */
export function appendRouteHook(route: RouteOptions, name: HookName, handler: unknown) {
  const current = route[name] as unknown;
  const list = current === undefined ? [] : Array.isArray(current) ? current : [current];
  (route as unknown as Record<HookName, unknown[]>)[name] = [...list, handler];
}
