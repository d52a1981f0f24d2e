import { Label, Text, TextArea as AriaTextArea, TextField as AriaTextField, type TextFieldProps } from 'react-aria-components';
import { cx, fieldDescription, fieldLabel, inputBox } from './styles.ts';
import { FieldErrorText, recheckWhileShown } from './FieldErrorText.tsx';

/** A labelled multi-line text input (an address); its error shows right under it, in the description's place. */
export function TextArea({
  label,
  description,
  rows = 3,
  className,
  ...props
}: Omit<TextFieldProps, 'children' | 'className'> & { label: string; description?: string; rows?: number; className?: string }) {
  return (
    <AriaTextField {...props} className={cx('flex flex-col gap-1.5', className)}>
      {({ isInvalid }) => (
        <>
          <Label className={fieldLabel}>{label}</Label>
          <AriaTextArea rows={rows} className={cx(inputBox, 'resize-y')} onInput={recheckWhileShown} />
          {description && !isInvalid && (
            <Text slot="description" className={fieldDescription}>
              {description}
            </Text>
          )}
          <FieldErrorText />
        </>
      )}
    </AriaTextField>
  );
}
