import { QueryClient } from '@tanstack/react-query';
import { HttpError, NetworkError } from '../api/call.ts';

/**
 * Cache rules (WEB-STYLE 2): data is fresh for 30 s; a failed query is retried once,
 * never on a 4xx (the answer would not change). A mutation is retried only when its
 * request got no answer and may be sent again without doing the work twice (an
 * Idempotency-Key, a PUT or DELETE: NetworkError.replayable), three times, 1, 2 and 4 s
 * apart; offline, TanStack Query holds it until the browser is back online. The form
 * keeps what was typed meanwhile (its state is untouched by a failure).
 */
const MUTATION_RETRIES = 3;
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failures, error) => failures < 1 && !(error instanceof HttpError && error.status < 500),
      },
      mutations: {
        retry: (failures, error) => failures < MUTATION_RETRIES && error instanceof NetworkError && error.replayable,
        retryDelay: (failures) => 1000 * 2 ** failures,
      },
    },
  });
}
