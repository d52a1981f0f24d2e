import { IMPORTED_TIME_KIND } from './kinds.ts';

/**
 * Imported time that an invoice bills at 0.00: what the new-invoice page warns about before
 * the create (review of 2026-12-06, third). An import prices each entry at the rate in force on
 * its day and an entry without one at 0, and the create still marks it billed (the spec allows
 * it), so the preview names those lines. Read from the previewed invoice alone: an import's time
 * lines are the only lines of kind `SERVICE` (a typed line is stored as its item category spells
 * it, `Service`), and a line at unit price 0 with hours bills them for nothing, whatever the
 * reason (no rate on the project, task or person, or a rate of 0). Pure, so it has vitest cases.
 */

export interface UnpricedLine {
  id: string;
  /** The line's first line of text (a detailed line's notes follow on the next ones). */
  description: string;
  hours: number;
  projectId: string | null;
}

export interface UnpricedTime {
  lines: UnpricedLine[];
  /** The lines' hours together, summed in whole seconds (the browser never sums decimals). */
  hours: number;
  /** The lines' projects, once each, in the lines' order. */
  projectIds: string[];
}

type Line = { id: string; kind: string; description: string | null; quantity: number; unit_price: number; effect: string; project_id: string | null };

export function unpricedTime(invoice: { line_items: readonly Line[] }): UnpricedTime | null {
  const lines = invoice.line_items
    .filter((l) => l.kind === IMPORTED_TIME_KIND && l.effect === 'charge' && l.unit_price === 0 && l.quantity > 0)
    .map((l) => ({ id: l.id, description: (l.description ?? '').split('\n')[0]!.trim(), hours: l.quantity, projectId: l.project_id }));
  if (lines.length === 0) return null;
  const seconds = lines.reduce((sum, l) => sum + Math.round(l.hours * 3600), 0);
  const projectIds = [...new Set(lines.flatMap((l) => (l.projectId ? [l.projectId] : [])))];
  return { lines, hours: seconds / 3600, projectIds };
}
