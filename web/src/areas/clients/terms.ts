import type { Translate } from '../../ui/i18n.ts';

/** The API's payment terms (src/modules/catalog/clients/rules.ts PAYMENT_TERMS); their names are in texts.ts (`terms.*`). */
export const PAYMENT_TERMS = ['upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom'] as const;

export type PaymentTerms = (typeof PAYMENT_TERMS)[number];

type TermTexts = { terms: { none: string; custom: string; customDays_one: string; customDays_other: string } & Record<PaymentTerms, string> };

export function termsLabel(t: Translate<TermTexts>, terms: string | null | undefined, days: number | null | undefined): string {
  if (!terms) return t('terms.none');
  if (terms === 'custom') return days == null ? t('terms.custom') : t('terms.customDays', { count: days });
  return (PAYMENT_TERMS as readonly string[]).includes(terms) ? t(`terms.${terms as PaymentTerms}`) : terms;
}
