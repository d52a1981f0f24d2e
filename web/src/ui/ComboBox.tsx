import {
  Button as AriaButton,
  ComboBox as AriaComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  type ComboBoxProps as AriaComboBoxProps,
  type Key,
} from 'react-aria-components';
import { ChevronDownIcon } from './icons.tsx';
import { cx, fieldError, fieldLabel, inputBox } from './styles.ts';

export interface ComboOption {
  id: Key;
  /** What the option says, what typing matches (any of its words, in any order), and its accessible name. */
  label: string;
}

export interface ComboBoxProps extends Omit<AriaComboBoxProps<ComboOption>, 'children' | 'className' | 'items' | 'defaultFilter'> {
  label: string;
  options: ComboOption[];
  hideLabel?: boolean;
  className?: string;
  /** Shown in the list when nothing matches (or while the options load). */
  emptyText?: string;
  /** The error under the field (with isInvalid). */
  errorMessage?: string;
}

/** A type-ahead choice from a long list (React Aria ComboBox): matches any words of the label, in any order. */
export function ComboBox({ label, options, hideLabel, className, emptyText = 'Nothing matches', errorMessage, ...props }: ComboBoxProps) {
  return (
    <AriaComboBox
      {...props}
      items={options}
      menuTrigger="focus"
      defaultFilter={(text, input) => {
        const haystack = text.toLowerCase();
        return input
          .toLowerCase()
          .split(/\s+/)
          .every((word) => haystack.includes(word));
      }}
      className={cx('flex flex-col gap-1.5', className)}
    >
      <Label className={cx(fieldLabel, hideLabel && 'sr-only')}>{label}</Label>
      <div className="relative">
        <Input className={cx(inputBox, 'pr-9')} />
        <AriaButton className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-stone-500 outline-none data-focus-visible:outline-2 data-focus-visible:outline-teal-600">
          <ChevronDownIcon className="size-4" />
        </AriaButton>
      </div>
      <FieldError className={fieldError}>{errorMessage}</FieldError>
      <Popover className="max-h-72 min-w-(--trigger-width) overflow-auto rounded-md border border-stone-200 bg-white p-1 shadow-lg outline-none">
        <ListBox className="outline-none" renderEmptyState={() => <p className="px-2 py-2 text-sm text-stone-600">{emptyText}</p>}>
          {(option: ComboOption) => (
            <ListBoxItem
              id={option.id}
              textValue={option.label}
              className="cursor-default rounded-sm px-2 py-2 text-sm text-stone-900 outline-none data-focused:bg-teal-50 data-selected:font-medium"
            >
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
