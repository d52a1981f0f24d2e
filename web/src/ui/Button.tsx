import { Button as AriaButton, composeRenderProps, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import type { Ref } from 'react';
import { cx, focusRing } from './styles.ts';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-teal-700 text-white shadow-xs data-hovered:bg-teal-800 data-pressed:bg-teal-900',
  secondary: 'border border-stone-300 bg-white text-stone-800 shadow-xs data-hovered:bg-stone-50 data-pressed:bg-stone-100',
  quiet: 'text-stone-700 data-hovered:bg-stone-100 data-pressed:bg-stone-200',
  danger: 'bg-red-700 text-white shadow-xs data-hovered:bg-red-800 data-pressed:bg-red-900',
};

export const buttonClass = (variant: ButtonVariant = 'primary', extra?: string) =>
  cx(
    'inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium whitespace-nowrap transition-colors',
    'data-disabled:cursor-not-allowed data-disabled:opacity-60 data-pending:cursor-wait',
    focusRing,
    VARIANTS[variant],
    extra,
  );

export interface ButtonProps extends AriaButtonProps {
  variant?: ButtonVariant;
  /** To move the focus to it (React 19 passes it as a prop to React Aria's button). */
  ref?: Ref<HTMLButtonElement>;
}

/** A button; `isPending` keeps it in place and tells screen readers it is busy while a request runs. */
export function Button({ variant = 'primary', className, children, ...props }: ButtonProps) {
  return (
    <AriaButton {...props} className={composeRenderProps(className, (c) => buttonClass(variant, c))}>
      {composeRenderProps(children, (content, { isPending }) => (
        <>
          {isPending && <Spinner />}
          {content}
        </>
      ))}
    </AriaButton>
  );
}

function Spinner() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 animate-spin">
      <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="2" />
      <path d="M14 8a6 6 0 0 0-6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
