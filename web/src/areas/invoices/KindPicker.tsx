import { useQuery } from '@tanstack/react-query';
import { Select } from '../../ui/Select.tsx';
import { kindChoicesQuery } from './api.ts';
import { kindText } from './kinds.ts';
import { useInvoiceTexts } from './texts.ts';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A line's kind: one of the workspace's active item categories, as the person reads it
 * (kinds.ts: Service and Product in their language). A kind the line already has that is
 * no longer offered (an archived category, an imported Expense) stays as a choice, so an
 * edit that leaves it keeps it.
 */
export function KindPicker({ label, name, value, onChange }: { label: string; name: string; value: string; onChange: (kind: string) => void }) {
  const t = useInvoiceTexts();
  const { data: active = [] } = useQuery(kindChoicesQuery);
  const current = active.find((k) => same(k, value));
  const kinds = current === undefined ? [...active, value] : active;
  return (
    <Select
      label={label}
      name={name}
      options={kinds.map((k) => ({ id: k, label: kindText(t, k) }))}
      selectedKey={current ?? value}
      onSelectionChange={(key) => key !== null && onChange(String(key))}
    />
  );
}
