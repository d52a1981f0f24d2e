import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';
import { cx } from './styles.ts';

/**
 * A form: Enter submits; `validationErrors` ({ [API field]: message }) puts a server error
 * under the field of that name until the user edits it (React Aria's form validation).
 */
export function Form({ className, ...props }: Omit<AriaFormProps, 'className'> & { className?: string }) {
  return <AriaForm {...props} className={cx('flex flex-col gap-5', className)} />;
}
