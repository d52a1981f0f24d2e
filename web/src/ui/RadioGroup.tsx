import { Label, Radio, RadioGroup as AriaRadioGroup, Text, type RadioGroupProps as AriaRadioGroupProps } from 'react-aria-components';
import { cx, fieldDescription, fieldLabel } from './styles.ts';
import { FieldErrorText } from './FieldErrorText.tsx';

export interface RadioOption {
  id: string;
  label: string;
}

/** A labelled choice of a few options shown side by side (React Aria RadioGroup: arrow keys move the choice). */
export function RadioGroup({
  label,
  description,
  options,
  className,
  ...props
}: Omit<AriaRadioGroupProps, 'children' | 'className'> & { label: string; description?: string; options: RadioOption[]; className?: string }) {
  return (
    <AriaRadioGroup {...props} className={cx('flex flex-col gap-2', className)}>
      <Label className={fieldLabel}>{label}</Label>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {options.map((o) => (
          <Radio key={o.id} value={o.id} className="group flex min-h-8 items-center gap-2 text-sm text-stone-800 data-disabled:opacity-60">
            <span
              className={cx(
                'flex size-5 shrink-0 items-center justify-center rounded-full border border-stone-400 bg-white group-data-selected:border-teal-700',
                'group-data-focus-visible:outline-2 group-data-focus-visible:outline-offset-2 group-data-focus-visible:outline-teal-600',
              )}
            >
              <span className="size-2.5 rounded-full bg-teal-700 opacity-0 group-data-selected:opacity-100" />
            </span>
            {o.label}
          </Radio>
        ))}
      </div>
      {description && (
        <Text slot="description" className={fieldDescription}>
          {description}
        </Text>
      )}
      <FieldErrorText kind="choice" />
    </AriaRadioGroup>
  );
}
