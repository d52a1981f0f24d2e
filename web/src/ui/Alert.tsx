import type { ReactNode } from 'react';
import { cx } from './styles.ts';

type Tone = 'error' | 'warning' | 'success' | 'info';

const TONES: Record<Tone, string> = {
  error: 'border-red-200 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-950',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  info: 'border-sky-200 bg-sky-50 text-sky-900',
};

/**
 * A message above a form or a page. Errors are announced at once (role=alert);
 * warnings (something to know before going on, not a refusal) and confirmations politely (role=status).
 */
export function Alert({ tone = 'error', title, children, className }: { tone?: Tone; title?: string; children?: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('rounded-md border px-4 py-3 text-sm', TONES[tone], className)}>
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={title ? 'mt-1' : undefined}>{children}</div>}
    </div>
  );
}
