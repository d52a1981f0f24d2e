/** The API's payment terms (src/modules/clients/rules.ts PAYMENT_TERMS) as people read them. */
export const PAYMENT_TERMS = [
  { id: 'upon_receipt', label: 'Upon receipt' },
  { id: 'net_15', label: 'Net 15 days' },
  { id: 'net_30', label: 'Net 30 days' },
  { id: 'net_45', label: 'Net 45 days' },
  { id: 'net_60', label: 'Net 60 days' },
  { id: 'custom', label: 'Custom' },
] as const;

export type PaymentTerms = (typeof PAYMENT_TERMS)[number]['id'];

export function termsLabel(terms: string | null | undefined, days: number | null | undefined): string {
  if (!terms) return 'Not set';
  if (terms === 'custom') return days === 1 ? 'Custom: 1 day' : `Custom: ${days ?? '?'} days`;
  return PAYMENT_TERMS.find((t) => t.id === terms)?.label ?? terms;
}
