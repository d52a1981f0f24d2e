import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../ui/i18n.ts';
import { invoiceTexts } from './texts.ts';
import { unpricedTime } from './unpriced.ts';

const line = (o: Partial<{ id: string; kind: string; description: string | null; quantity: number; unit_price: number; effect: string; project_id: string | null }>) => ({
  id: 'l',
  kind: 'SERVICE',
  description: 'Website: Design',
  quantity: 1,
  unit_price: 0,
  effect: 'charge',
  project_id: 'p1',
  ...o,
});

describe('imported time billed at 0.00', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('is the imported time lines at unit price 0 with hours: their first text line, hours summed in seconds, projects once', () => {
    const found = unpricedTime({
      line_items: [
        line({ id: 'a', description: 'Website: Design', quantity: 5 }),
        line({ id: 'priced', unit_price: 100, quantity: 2 }),
        line({ id: 'b', description: 'Website: Design - Mia - 2026-05-04\nHero image', quantity: 0.1 }),
        line({ id: 'c', description: 'Intranet: Support', quantity: 2.4, project_id: 'p2' }),
        line({ id: 'expense', kind: 'Expense', quantity: 1 }), // an expense of 0 is no time
        line({ id: 'typed', kind: 'Service', quantity: 3 }), // a typed line is priced as the person typed it
        line({ id: 'none', quantity: 0 }), // no hours, nothing billed for nothing
      ],
    });
    expect(found).toEqual({
      lines: [
        { id: 'a', description: 'Website: Design', hours: 5, projectId: 'p1' },
        { id: 'b', description: 'Website: Design - Mia - 2026-05-04', hours: 0.1, projectId: 'p1' },
        { id: 'c', description: 'Intranet: Support', hours: 2.4, projectId: 'p2' },
      ],
      hours: 7.5,
      projectIds: ['p1', 'p2'],
    });
  });

  it('is nothing when every imported hour has a price', () => {
    expect(unpricedTime({ line_items: [line({ unit_price: 80 }), line({ kind: 'Expense', unit_price: 0 })] })).toBeNull();
    expect(unpricedTime({ line_items: [] })).toBeNull();
  });

  it('reads as a sentence in English and German, with the count', async () => {
    expect(invoiceTexts('create.unpriced.title', { count: 2, hours: '7:30', price: '€0.00' })).toBe('2 lines bill 7:30 h at €0.00');
    expect(invoiceTexts('create.unpriced.title', { count: 1, hours: '7:30', price: '€0.00' })).toBe('1 line bills 7:30 h at €0.00');
    await i18n.changeLanguage('de');
    expect(invoiceTexts('create.unpriced.title', { count: 2, hours: '7,50', price: '0,00 €' })).toBe('2 Positionen berechnen 7,50 Std. zu 0,00 €');
    expect(invoiceTexts('create.unpriced.why')).toMatch(/kein Stundensatz/);
  });
});
