import { useEffect } from 'react';

/**
 * Tables on a phone (issue 21 item 13). A wide list table carries `data-stack`; below 640 px
 * index.css shows each of its rows as a block and each cell as a line with its column's name
 * beside it. The names are the header's, copied into each body cell's `data-label` here, for
 * every stacked table of the document (dialogs are outside the page's <main>), now and whenever
 * rows change: no page repeats them. The signed-in shell calls it once.
 */
export function useStackedTables() {
  useEffect(() => {
    const element = document.body;
    const label = () => element.querySelectorAll<HTMLTableElement>('table[data-stack]').forEach(labelCells);
    label();
    // Setting attributes is not a child-list change: the observer does not wake itself.
    const observer = new MutationObserver(label);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
}

/** Each body and footer cell's column name, from the header row (by position, counting spans); header cells of a row get none. */
export function labelCells(table: HTMLTableElement) {
  const names = [...table.querySelectorAll(':scope > thead th')].map((th) => th.textContent?.trim() ?? '');
  for (const section of [...table.tBodies, ...(table.tFoot ? [table.tFoot] : [])]) {
    for (const row of section.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const name = cell.tagName === 'TD' ? names[column] : undefined;
        if (name && cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        else if (!name && cell.hasAttribute('data-label')) cell.removeAttribute('data-label');
        column += cell.colSpan || 1;
      }
    }
  }
}
