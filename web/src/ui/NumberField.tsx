import { Input, Label, NumberField as AriaNumberField, Text, useLocale, type NumberFieldProps as AriaNumberFieldProps } from 'react-aria-components';
import { cx, fieldDescription, fieldLabel, inputBox } from './styles.ts';
import { FieldErrorText } from './FieldErrorText.tsx';
import { useTexts } from './texts.ts';

/**
 * A labelled number input (React Aria NumberField: locale-aware typing and formatting, e.g. a
 * currency amount). `minValue` and `maxValue` are checked, never applied: React Aria clamps a value
 * outside them when the field loses focus, which turned a mistyped 5,000 into the 4,217.78 due and
 * recorded a payment in full without a word. Here the value stays as typed and the field says what
 * it takes, before any other `validate` rule. `moreThan` is a lower bound the value must exceed
 * (an amount to fund: 0 is not one), said as such rather than refused without a word.
 */
export function NumberField({
  label,
  description,
  minValue,
  maxValue,
  moreThan,
  validate,
  ...props
}: Omit<AriaNumberFieldProps, 'children' | 'className'> & { label: string; description?: string; moreThan?: number }) {
  const t = useTexts();
  const { locale } = useLocale();
  const written = (n: number) => new Intl.NumberFormat(locale, props.formatOptions).format(n);
  return (
    <AriaNumberField
      {...props}
      validate={(value) => {
        if (Number.isNaN(value)) return validate?.(value);
        if (moreThan !== undefined && value <= moreThan) return t('invalid.moreThan', { min: written(moreThan) });
        if (minValue !== undefined && value < minValue) return t('invalid.atLeast', { min: written(minValue) });
        if (maxValue !== undefined && value > maxValue) return t('invalid.atMost', { max: written(maxValue) });
        return validate?.(value);
      }}
      className="flex flex-col gap-1.5"
    >
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
