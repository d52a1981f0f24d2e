import type { ComponentType } from 'react';
import { Button } from './Button.tsx';
import { Checkbox } from './Checkbox.tsx';
import { NumberField } from './NumberField.tsx';
import { TextField } from './TextField.tsx';

/**
 * Lines typed in by hand (kind, description, quantity, unit price, taxed), as the new
 * invoice and the estimate forms take them. Each field's `name` is the API property
 * (`line_items.0.quantity`), so the server's `field` lands under it. The labels are
 * the caller's (its own texts).
 */
export interface EditedLine {
  key: number | string;
  kind: string;
  description: string;
  quantity: number;
  unit_price: number;
  taxed: boolean;
}

export interface LineLabels {
  line: (n: number) => string;
  kind: string;
  description: string;
  quantity: string;
  unitPrice: string;
  taxed: string;
  removeLine: (n: number) => string;
  addLine: string;
}

/** The field a line's kind is chosen in: free text by default; the invoices pass their item-category picker. */
export type KindFieldType = ComponentType<{ label: string; name: string; value: string; onChange: (kind: string) => void }>;

const KindText: KindFieldType = (props) => <TextField {...props} />;

let nextKey = 1;

/** An empty line of `kind` (no price yet). */
export const blankLine = (kind: string): EditedLine => ({ key: `new-${nextKey++}`, kind, description: '', quantity: 1, unit_price: NaN, taxed: true });

/** The lines as the API's `line_items` (an empty number is 0; "taxed" applies both taxes). */
export const lineItemsOf = (lines: EditedLine[]) =>
  lines.map((l) => ({
    kind: l.kind,
    description: l.description.trim() ? l.description : null,
    quantity: Number.isNaN(l.quantity) ? 0 : l.quantity,
    unit_price: Number.isNaN(l.unit_price) ? 0 : l.unit_price,
    taxed: l.taxed,
    taxed2: l.taxed,
  }));

/** The field names of the lines, for routing the server's errors onto them. */
export const lineFieldNames = (count: number) =>
  Array.from({ length: count }, (_, i) => ['kind', 'description', 'quantity', 'unit_price'].map((f) => `line_items.${i}.${f}`)).flat();

export function LineItemsEditor({
  lines,
  onChange,
  labels,
  newKind,
  KindField = KindText,
}: {
  lines: EditedLine[];
  onChange: (l: EditedLine[]) => void;
  labels: LineLabels;
  newKind: string;
  KindField?: KindFieldType;
}) {
  const setLine = (i: number, patch: Partial<EditedLine>) => onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  return (
    <div className="flex flex-col gap-3">
      <ol className="flex flex-col gap-3">
        {lines.map((l, i) => (
          <li key={l.key} aria-label={labels.line(i + 1)} className="grid gap-3 rounded-md border border-stone-200 p-3 sm:grid-cols-[8rem_1fr_6rem_8rem]">
            <KindField label={labels.kind} name={`line_items.${i}.kind`} value={l.kind} onChange={(kind) => setLine(i, { kind })} />
            <TextField label={labels.description} name={`line_items.${i}.description`} value={l.description} onChange={(description) => setLine(i, { description })} />
            <NumberField label={labels.quantity} name={`line_items.${i}.quantity`} value={l.quantity} onChange={(quantity) => setLine(i, { quantity })} minValue={0} formatOptions={{ maximumFractionDigits: 4 }} />
            <NumberField label={labels.unitPrice} name={`line_items.${i}.unit_price`} value={l.unit_price} onChange={(unit_price) => setLine(i, { unit_price })} minValue={0} formatOptions={{ maximumFractionDigits: 4 }} />
            <div className="flex flex-wrap items-center justify-between gap-3 sm:col-span-4">
              <Checkbox isSelected={l.taxed} onChange={(taxed) => setLine(i, { taxed })}>
                {labels.taxed}
              </Checkbox>
              {lines.length > 1 && (
                <Button variant="quiet" onPress={() => onChange(lines.filter((_, j) => j !== i))}>
                  {labels.removeLine(i + 1)}
                </Button>
              )}
            </div>
          </li>
        ))}
      </ol>
      <div>
        <Button variant="secondary" onPress={() => onChange([...lines, blankLine(newKind)])}>
          {labels.addLine}
        </Button>
      </div>
    </div>
  );
}
