/**
 * Type-ahead matching for long lists (issue 21 item 1): every word typed must occur in the
 * option's text, in any order, ignoring case and accents ("cafe" finds "Café", "design acme"
 * finds "Acme - Website - Design"). The texts are folded once per list (`searchIndex`), so a
 * keystroke over 10,000 options is one `includes` per word and option, no allocation per option.
 */

/** Lower case without combining marks: "Café Æon" -> "cafe æon". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a query, folded; empty when it has none (everything matches). */
export function queryWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

export interface SearchIndex<T> {
  items: readonly T[];
  haystacks: string[];
}

/** Folds each item's text once (per list, not per keystroke). */
export function searchIndex<T>(items: readonly T[], textOf: (item: T) => string): SearchIndex<T> {
  return { items, haystacks: items.map((item) => fold(textOf(item))) };
}

/** The items whose text holds every word of `query`, in the list's order (so "recent first" stays first). */
export function search<T>(index: SearchIndex<T>, query: string): readonly T[] {
  const words = queryWords(query);
  if (words.length === 0) return index.items;
  const found: T[] = [];
  const { items, haystacks } = index;
  for (let i = 0; i < items.length; i++) {
    const haystack = haystacks[i];
    let all = true;
    for (const word of words) {
      if (!haystack.includes(word)) {
        all = false;
        break;
      }
    }
    if (all) found.push(items[i]);
  }
  return found;
}
