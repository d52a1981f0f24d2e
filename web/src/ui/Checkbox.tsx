import type { ReactNode } from 'react';
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';
import { CheckIcon } from './icons.tsx';
import { cx } from './styles.ts';

/** A checkbox whose text is its label; `isIndeterminate` shows a dash (a "select all" of which some are chosen). */
export function Checkbox({ children, className, ...props }: Omit<AriaCheckboxProps, 'children' | 'className'> & { children: ReactNode; className?: string }) {
  return (
    <AriaCheckbox {...props} className={cx('group flex items-center gap-2.5 text-sm text-stone-800 data-disabled:opacity-60', className)}>
      <span
        className={cx(
          'flex size-5 shrink-0 items-center justify-center rounded-sm border border-stone-400 bg-white',
          'group-data-selected:border-teal-700 group-data-selected:bg-teal-700 group-data-indeterminate:border-teal-700 group-data-indeterminate:bg-teal-700',
          'group-data-invalid:border-red-600',
          'group-data-focus-visible:outline-2 group-data-focus-visible:outline-offset-2 group-data-focus-visible:outline-teal-600',
        )}
      >
        <CheckIcon className="size-3.5 text-white opacity-0 group-data-selected:opacity-100 group-data-indeterminate:hidden" />
        <span aria-hidden="true" className="hidden h-0.5 w-2.5 rounded-full bg-white group-data-indeterminate:block" />
      </span>
      {children}
    </AriaCheckbox>
  );
}
