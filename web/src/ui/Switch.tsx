import type { ReactNode } from 'react';
import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';
import { cx } from './styles.ts';

/** An on/off setting that takes effect at once; its text is its label. */
export function Switch({ children, className, ...props }: Omit<AriaSwitchProps, 'children' | 'className'> & { children: ReactNode; className?: string }) {
  return (
    <AriaSwitch {...props} className={cx('group flex items-center gap-3 text-sm text-stone-800 data-disabled:opacity-60', className)}>
      <span
        className={cx(
          'flex h-6 w-10 shrink-0 items-center rounded-full bg-stone-300 p-0.5 transition-colors group-data-selected:bg-teal-700',
          'group-data-focus-visible:outline-2 group-data-focus-visible:outline-offset-2 group-data-focus-visible:outline-teal-600',
        )}
      >
        <span className="size-5 rounded-full bg-white shadow-sm transition-transform group-data-selected:translate-x-4" />
      </span>
      {children}
    </AriaSwitch>
  );
}
