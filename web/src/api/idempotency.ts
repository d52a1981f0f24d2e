import { useRef } from 'react';

/**
 * The Idempotency-Key of a create (WEB-STYLE 2): made when the form opens, reused when the
 * same body is sent again (a retry after a network error or a 5xx replays the first answer
 * instead of creating twice), replaced when the body changes (the same key with other input
 * is a 409).
 */
export function useIdempotencyKey() {
  const last = useRef<{ body: string; key: string } | null>(null);
  return (body: unknown): string => {
    const text = JSON.stringify(body);
    if (last.current?.body !== text) last.current = { body: text, key: crypto.randomUUID() };
    return last.current.key;
  };
}

export const idempotencyHeader = (key: string) => ({ 'Idempotency-Key': key });
