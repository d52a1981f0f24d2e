import { useEffect, useRef } from 'react';
import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';
import { cx } from './styles.ts';

/**
 * A form: Enter submits; `validationErrors` ({ [API field]: message }) puts a server error
 * under the field of that name until the user edits it (React Aria's form validation).
 * When a refusal names a field, that field takes the focus, so its message is in view and read
 * out: in a long dialog it may be far above the button that was pressed.
 */
export function Form({ className, validationErrors, ...props }: Omit<AriaFormProps, 'className'> & { className?: string }) {
  const form = useRef<HTMLFormElement>(null);
  // By content: forms build the object on every render, and typing elsewhere must not pull the focus back.
  const named = validationErrors ? Object.keys(validationErrors).find((k) => validationErrors[k]) : undefined;
  const refusal = named ? `${named}\n${String(validationErrors?.[named])}` : '';
  useEffect(() => {
    if (!named) return;
    const field = form.current?.elements.namedItem(named);
    // Only a field a person can focus: not a picker's hidden stand-in (tabIndex -1, or type=hidden).
    if (!(field instanceof HTMLElement) || field.tabIndex < 0 || (field instanceof HTMLInputElement && field.type === 'hidden')) return;
    if (!field.contains(document.activeElement)) field.focus();
  }, [named, refusal]);
  return <AriaForm ref={form} {...props} validationErrors={validationErrors} className={cx('flex flex-col gap-5', className)} />;
}
