import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../ui/Dialog.tsx';
import { isTyping, runCommand } from '../../ui/commands.ts';
import { useTexts } from '../texts.ts';

/**
 * The keyboard shortcuts of every signed-in page (issue 21 item 13), Linear's and GitHub's
 * style: single keys for actions, `g` then a key to go somewhere, `?` for this list. Keys
 * pressed while typing in a field, or with Ctrl/Alt/Meta, are left alone (the browser's and
 * the screen reader's own shortcuts stay theirs).
 */
export const SHORTCUTS: { keys: string[]; what: 'timer' | 'newEntry' | 'home' | 'day' | 'week' | 'calendar' | 'help' }[] = [
  { keys: ['s'], what: 'timer' },
  { keys: ['n'], what: 'newEntry' },
  { keys: ['g', 'h'], what: 'home' },
  { keys: ['g', 'd'], what: 'day' },
  { keys: ['g', 'w'], what: 'week' },
  { keys: ['g', 'c'], what: 'calendar' },
  { keys: ['?'], what: 'help' },
];

const GO: Record<string, string> = { h: '/', d: '/time/day', w: '/time/week', c: '/time/calendar' };
/** How long `g` waits for its second key. */
const SEQUENCE_MS = 1500;

export function Shortcuts() {
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const t = useTexts();
  const pendingG = useRef(0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || isTyping(e.target)) return;
      const key = e.key;
      if (pendingG.current && Date.now() - pendingG.current < SEQUENCE_MS && GO[key]) {
        pendingG.current = 0;
        e.preventDefault();
        navigate(GO[key]);
        return;
      }
      pendingG.current = 0;
      if (key === 'g') pendingG.current = Date.now();
      else if (key === '?') setHelpOpen(true);
      else if (key === 's') {
        if (runCommand('timer.toggle')) e.preventDefault();
      } else if (key === 'n') {
        e.preventDefault();
        // The day view focuses its new-entry form; elsewhere, go there and it opens with the form focused.
        if (!runCommand('entry.new')) navigate('/time/day?new=1');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate]);

  return (
    <Dialog title={t('shortcuts.title')} isOpen={helpOpen} onOpenChange={setHelpOpen}>
      <table className="w-full text-sm">
        <caption className="sr-only">{t('shortcuts.title')}</caption>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what} className="border-b border-stone-100 last:border-0">
              <td className="py-2 pr-4 whitespace-nowrap">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && <span className="px-1 text-stone-600">{t('shortcuts.then')}</span>}
                    <kbd className="rounded border border-stone-300 bg-stone-50 px-1.5 py-0.5 font-mono text-xs text-stone-900">{k}</kbd>
                  </span>
                ))}
              </td>
              <td className="py-2 text-stone-800">{t(`shortcuts.${s.what}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-4 text-sm text-stone-600">{t('shortcuts.weekArrows')}</p>
    </Dialog>
  );
}
