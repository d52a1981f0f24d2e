import { useEffect, useEffectEvent, useState } from 'react';

/**
 * A search box whose words live in the URL: what is typed shows at once, and is committed
 * (`commit`, which writes the URL) after a pause, so a word is one navigation, not one per key.
 * A search changed by the URL (a link, back and forward, a "Clear filters") replaces what the
 * box holds. `committed` is the search the URL has now, trimmed; `commit` gets the trimmed text
 * (the latest `commit`: a page rendering again meanwhile does not restart the pause).
 */
export function useTypedSearch(committed: string, commit: (text: string) => void, delay = 250): [string, (text: string) => void] {
  const [text, setText] = useState(committed);
  const [seen, setSeen] = useState(committed);
  if (seen !== committed) {
    setSeen(committed);
    if (committed !== text.trim()) setText(committed);
  }
  const onPause = useEffectEvent((trimmed: string) => commit(trimmed));
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === committed) return;
    const timer = setTimeout(() => onPause(trimmed), delay);
    return () => clearTimeout(timer);
  }, [text, committed, delay]);
  return [text, setText];
}
