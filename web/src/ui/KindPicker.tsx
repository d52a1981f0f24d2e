import { Select } from './Select.tsx';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A line's kind: one of `kinds` (the workspace's active item categories), each as the
 * person reads it (`kindText`). A kind the line already has that is no longer offered
 * (an archived category, an imported Expense) stays as a choice, so an edit that leaves
 * it keeps it. The invoices and the estimates wrap it with their categories and texts.
 */
export function KindPicker({
  label,
  name,
  value,
  onChange,
  kinds: active,
  kindText,
  isDisabled,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (kind: string) => void;
  kinds: string[];
  kindText: (kind: string) => string;
  isDisabled?: boolean;
}) {
  const current = active.find((k) => same(k, value));
  const kinds = current === undefined ? [...active, value] : active;
  return (
    <Select
      label={label}
      name={name}
      options={kinds.map((k) => ({ id: k, label: kindText(k) }))}
      selectedKey={current ?? value}
      onSelectionChange={(key) => key !== null && onChange(String(key))}
      isDisabled={isDisabled}
    />
  );
}
