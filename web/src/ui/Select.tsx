import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  Text,
  type Key,
  type SelectProps as AriaSelectProps,
} from 'react-aria-components';
import { ChevronDownIcon, CheckIcon } from './icons.tsx';
import { cx, fieldDescription, fieldLabel, focusRing } from './styles.ts';
import { FieldErrorText } from './FieldErrorText.tsx';

export interface SelectOption {
  id: Key;
  /** What the option says (and what typeahead matches). */
  label: string;
  /** A second, quieter line (e.g. your role in a workspace). */
  detail?: string;
}

export interface SelectProps extends Omit<AriaSelectProps<SelectOption>, 'children' | 'className'> {
  label: string;
  options: SelectOption[];
  description?: string;
  /** Hide the label visually (it still names the control); only where the context names it already. */
  hideLabel?: boolean;
  labelClassName?: string;
  className?: string;
}

/** A labelled single choice from a short list (React Aria Select: keyboard, typeahead, screen readers). */
export function Select({ label, options, description, hideLabel, labelClassName, className, ...props }: SelectProps) {
  return (
    <AriaSelect {...props} className={cx('flex flex-col gap-1.5', className)}>
      <Label className={cx(labelClassName ?? fieldLabel, hideLabel && 'sr-only')}>{label}</Label>
      <AriaButton
        className={cx(
          'flex min-h-10 w-full items-center justify-between gap-2 rounded-md border border-stone-300 bg-white px-3 py-2 text-left text-sm text-stone-900 shadow-xs',
          'data-hovered:border-stone-400 data-pressed:bg-stone-50',
          'data-disabled:cursor-not-allowed data-disabled:border-stone-200 data-disabled:bg-stone-100 data-disabled:text-stone-500',
          focusRing,
        )}
      >
        {/* The option's text only: the list's check mark and detail line would stack above it. */}
        <SelectValue<SelectOption> className="truncate">
          {({ isPlaceholder, selectedText, defaultChildren }) => (isPlaceholder ? defaultChildren : selectedText)}
        </SelectValue>
        <ChevronDownIcon className="size-4 shrink-0 text-stone-500" />
      </AriaButton>
      {description && (
        <Text slot="description" className={fieldDescription}>
          {description}
        </Text>
      )}
      <FieldErrorText kind="choice" />
      <Popover className="min-w-(--trigger-width) overflow-auto rounded-md border border-stone-200 bg-white p-1 shadow-lg outline-none">
        <ListBox items={options} className="outline-none">
          {(option) => <Option option={option} />}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}

function Option({ option }: { option: SelectOption }): ReactNode {
  return (
    <ListBoxItem
      id={option.id}
      textValue={option.label}
      className={cx(
        'flex cursor-default items-center gap-2 rounded-sm px-2 py-2 text-sm text-stone-900 outline-none',
        'data-focused:bg-teal-50 data-selected:font-medium',
      )}
    >
      {({ isSelected }) => (
        <>
          <span className="flex size-4 shrink-0 items-center justify-center">{isSelected && <CheckIcon className="size-4 text-teal-700" />}</span>
          <span className="flex min-w-0 flex-col">
            <span className="truncate">{option.label}</span>
            {option.detail && <span className="truncate text-xs font-normal text-stone-600">{option.detail}</span>}
          </span>
        </>
      )}
    </ListBoxItem>
  );
}
