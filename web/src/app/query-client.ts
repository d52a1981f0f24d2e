import { QueryClient } from '@tanstack/react-query';
import { HttpError } from '../api/call.ts';

/**
 * Cache rules (WEB-STYLE 2): data is fresh for 30 s; a failed query is retried once,
 * never on a 4xx (the answer would not change); a mutation never retries by itself.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failures, error) => failures < 1 && !(error instanceof HttpError && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
