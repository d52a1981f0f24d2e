import { useContext, useEffect, useMemo, useState } from 'react';
import {
  Button as AriaButton,
  ComboBox as AriaComboBox,
  ComboBoxStateContext,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  ListLayout,
  Popover,
  Text,
  Virtualizer,
  type ComboBoxProps as AriaComboBoxProps,
  type Key,
} from 'react-aria-components';
import { ChevronDownIcon } from './icons.tsx';
import { search, searchIndex } from './match.ts';
import { cx, fieldDescription, fieldLabel, inputBox } from './styles.ts';
import { useTexts } from './texts.ts';
import { FieldErrorText } from './FieldErrorText.tsx';

export interface ComboOption {
  id: Key;
  /** What the option says, what typing matches (any of its words, in any order), and its accessible name. */
  label: string;
}

export interface ComboBoxProps extends Omit<AriaComboBoxProps<ComboOption>, 'children' | 'className' | 'items' | 'defaultFilter'> {
  label: string;
  /** In the order they should be offered (recently used first, say): matches keep it. */
  options: ComboOption[];
  /** Hides the label visually (screen readers still read it); `narrow`: below 768 px only, where the field shows it as its placeholder. */
  hideLabel?: boolean | 'narrow';
  className?: string;
  /** Shown in the list when nothing matches (or while the options load). */
  emptyText?: string;
  /** The error under the field (with isInvalid). */
  errorMessage?: string;
  /** A hint under the field (its accessible description). */
  description?: string;
}

/** Rows of one line; longer labels wrap and are measured (ListLayout's estimate). */
const layoutOptions = { estimatedRowHeight: 36, padding: 4 };

/**
 * A type-ahead choice from a long list (React Aria ComboBox): typing keeps the options whose
 * label holds every typed word, in any order, ignoring case and accents (ui/match.ts).
 *
 * React Stately filters only the items it collects itself, never an `items` list, so the
 * filter is ours: the typed text (what the user typed since the list opened, not the text
 * the field shows for the chosen option, so focusing a filled field still offers everything)
 * narrows the folded labels, built once per options list. The list is virtualized: with
 * 10,000 project-task pairs only the visible rows are in the page.
 */
export function ComboBox({ label, options, hideLabel, className, emptyText, errorMessage, description, onOpenChange, onSelectionChange, ...props }: ComboBoxProps) {
  const t = useTexts();
  const index = useMemo(() => searchIndex(options, (o) => o.label), [options]);
  const [typed, setTyped] = useState('');
  const [picks, setPicks] = useState(0);
  const items = useMemo(() => search(index, typed), [index, typed]);
  return (
    <AriaComboBox
      {...props}
      items={items}
      menuTrigger="focus"
      allowsEmptyCollection
      onOpenChange={(isOpen, trigger) => {
        // Opened again, or closed (the field then shows the chosen option again): offer everything.
        if (!isOpen || trigger !== 'input') setTyped('');
        onOpenChange?.(isOpen, trigger);
      }}
      onSelectionChange={(key) => {
        setTyped('');
        // A picker that stays empty (selectedKey null: picking adds a row) is cleared and closed after each pick.
        if (props.selectedKey === null && key !== null) setPicks((n) => n + 1);
        onSelectionChange?.(key);
      }}
      className={cx('flex flex-col gap-1.5', className)}
    >
      <Label className={cx(fieldLabel, hideLabel === 'narrow' ? 'max-md:sr-only' : hideLabel && 'sr-only')}>{label}</Label>
      <div className="relative">
        {/* Where the placeholder is the field's only visible label, it is written at a label's contrast (WCAG 1.4.3), not a hint's. */}
        <Input className={cx(inputBox, 'pr-9', hideLabel === 'narrow' && 'max-md:placeholder:text-stone-600')} placeholder={hideLabel === 'narrow' ? label : undefined} onChange={(e) => setTyped(e.target.value)} />
        <AriaButton className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-stone-500 outline-hidden data-focus-visible:outline-2 data-focus-visible:outline-solid data-focus-visible:outline-teal-600">
          <ChevronDownIcon className="size-4" />
        </AriaButton>
      </div>
      {description && (
        <Text slot="description" className={fieldDescription}>
          {description}
        </Text>
      )}
      <FieldErrorText kind="choice">{errorMessage}</FieldErrorText>
      <ClearAfterPick picks={picks} />
      <Popover className="min-w-(--trigger-width) rounded-md border border-stone-200 bg-white shadow-lg outline-none">
        <Virtualizer layout={ListLayout} layoutOptions={layoutOptions}>
          <ListBox className="max-h-72 overflow-auto outline-none" renderEmptyState={() => <p className="px-3 py-3 text-sm text-stone-600">{emptyText ?? t('nothingMatches')}</p>}>
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
        </Virtualizer>
      </Popover>
    </AriaComboBox>
  );
}

/**
 * React Stately closes the list and shows the chosen option when the selected key changes;
 * a picker whose key stays null never sees that change, so it is done here (the focus stays
 * in the field, ready for the next pick).
 */
function ClearAfterPick({ picks }: { picks: number }) {
  const state = useContext(ComboBoxStateContext);
  useEffect(() => {
    if (picks === 0 || !state) return;
    state.setInputValue('');
    state.close();
    // Only on a new pick (the state object changes with every render).
  }, [picks]);
  return null;
}
