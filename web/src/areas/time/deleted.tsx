import { useCallback, useState, type ReactNode, type RefObject } from 'react';
import type { WebEntry } from './api.ts';
import { entryLabel } from './EntryEditor.tsx';
import { useTimeTexts } from './texts.ts';

/**
 * After an entry is deleted from a dialog, the button that opened the dialog is gone with its
 * row, so the dialog's focus restore has nowhere to go and focus fell to the page body (WCAG
 * 2.4.3). The view names where focus goes instead (its entries' region) and says what was
 * deleted in a status line (WCAG 4.1.3).
 */
export function useDeletedEntry(region: RefObject<HTMLElement | null>): { onDeleted: (entry: WebEntry) => void; status: ReactNode } {
  const t = useTimeTexts();
  const [message, setMessage] = useState('');
  const onDeleted = useCallback(
    (entry: WebEntry) => {
      setMessage(t('editor.deleted', { work: entryLabel(entry) }));
      // After the dialog's own restore, which runs in the next frame.
      requestAnimationFrame(() => setTimeout(() => region.current?.focus(), 0));
    },
    [t, region],
  );
  const status = (
    <p role="status" className="sr-only">
      {message}
    </p>
  );
  return { onDeleted, status };
}
