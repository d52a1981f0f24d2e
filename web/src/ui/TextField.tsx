import { Input, Label, Text, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components';
import { cx, fieldDescription, fieldLabel, inputBox } from './styles.ts';
import { FieldErrorText, kindOfInput, recheckWhileShown } from './FieldErrorText.tsx';

/**
 * An e-mail address as the server takes one (src/email-address.ts: one @, no spaces, a dot in the
 * domain): the browser's own check lets `ben@example` through, which the server then refused in its
 * English words.
 */
const EMAIL_PATTERN = '[^\\s@]+@[^\\s@]+\\.[^\\s@]+';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'children' | 'className'> {
  label: string;
  /** A format hint under the field, read with it by screen readers. Give one to every field with a `validate` rule. */
  description?: string;
  placeholder?: string;
  className?: string;
}

/**
 * A labelled text input; its error (from the browser's checks, `validate`, or the server's
 * `field`) shows right under it. The error takes the description's place: React Aria shows
 * a `validate` error when the field loses focus, and a line appearing then would move the
 * button being pressed away from under the pointer, losing the click.
 */
export function TextField({ label, description, placeholder, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField pattern={props.type === 'email' ? EMAIL_PATTERN : undefined} {...props} className={cx('flex flex-col gap-1.5', className)}>
      {({ isInvalid }) => (
        <>
          <Label className={fieldLabel}>{label}</Label>
          <Input placeholder={placeholder} className={inputBox} onInput={recheckWhileShown} />
          {description && !isInvalid && (
            <Text slot="description" className={fieldDescription}>
              {description}
            </Text>
          )}
          <FieldErrorText kind={kindOfInput(props.type)} />
        </>
      )}
    </AriaTextField>
  );
}
