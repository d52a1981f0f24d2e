import { useEffect, useRef } from 'react';

/**
 * Named commands a keyboard shortcut can run (issue 21 item 13). The shell owns the keys;
 * whatever can carry a command out registers for its name while it is on screen (the timer
 * bar for the timer, the day view for a new entry), so the shell needs to know no page. The
 * one registered last wins; a handler returns false when it could not act.
 */
type Handler = () => boolean | void;
const handlers = new Map<string, Handler[]>();

export function runCommand(name: string): boolean {
  const list = handlers.get(name);
  const handler = list?.[list.length - 1];
  return handler ? handler() !== false : false;
}

/** Registers `handler` for `name` while the calling component is mounted (always the latest handler). */
export function useCommand(name: string, handler: Handler) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const entry: Handler = () => latest.current();
    const list = handlers.get(name) ?? [];
    handlers.set(name, [...list, entry]);
    return () => {
      handlers.set(name, (handlers.get(name) ?? []).filter((h) => h !== entry));
    };
  }, [name]);
}

/** Whether a key press belongs to what has focus (typing in a field, a menu or a grid), not to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('input, textarea, select, [role="combobox"], [role="listbox"], [role="menu"], [role="grid"], [role="dialog"]')) return true;
  return false;
}
