import { Input, Label, NumberField as AriaNumberField, Text, type NumberFieldProps as AriaNumberFieldProps } from 'react-aria-components';
import { cx, fieldDescription, fieldLabel, inputBox } from './styles.ts';
import { FieldErrorText } from './FieldErrorText.tsx';

/** A labelled number input (React Aria NumberField: locale-aware typing and formatting, e.g. a currency amount). */
export function NumberField({ label, description, ...props }: Omit<AriaNumberFieldProps, 'children' | 'className'> & { label: string; description?: string }) {
  return (
    <AriaNumberField {...props} className="flex flex-col gap-1.5">
      {({ isInvalid }) => (
        <>
          <Label className={fieldLabel}>{label}</Label>
          <Input className={cx(inputBox, 'tabular-nums')} />
          {description && !isInvalid && (
            <Text slot="description" className={fieldDescription}>
              {description}
            </Text>
          )}
          <FieldErrorText />
        </>
      )}
    </AriaNumberField>
  );
}
