import { useEffect, type ReactNode } from 'react';
import { cx } from './styles.ts';

/**
 * The page's one h1; it also names the browser tab. It can take focus (tabIndex -1),
 * so that after a navigation focus moves to it and screen readers read the new page
 * (app/Root.tsx does that).
 */
export function PageHeading({ children, title, className }: { children: ReactNode; title?: string; className?: string }) {
  const text = title ?? (typeof children === 'string' ? children : undefined);
  useEffect(() => {
    if (text) document.title = `${text} · Sheaf`;
  }, [text]);
  return (
    <h1 tabIndex={-1} className={cx('text-2xl font-semibold tracking-tight text-stone-900 outline-none', className)}>
      {children}
    </h1>
  );
}
