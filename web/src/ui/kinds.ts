import { DEFAULT_KIND, IMPORTED_EXPENSE_KIND, IMPORTED_TIME_KIND, PRODUCT_KIND, RETAINER_KIND, kindLabel } from '../../../src/modules/billing/invoices/kinds.ts';
import type { Translate } from './i18n.ts';

/** The kind a typed line starts with: the API's value, which the PDF prints in the client's language. */
export { DEFAULT_KIND, kindLabel };
/** The kind of an imported time line, and of a retainer's line (the invoices' warnings and tax choices read them). */
export { IMPORTED_TIME_KIND, RETAINER_KIND };

type KindTexts = { kinds: { service: string; expense: string; product: string; retainer: string } };

/**
 * A line's kind as the person reads it: the kinds Sheaf writes itself (the import's
 * `SERVICE`, a typed line's `Service`, an imported `Expense`, the built-in `Product`, a retainer's line) in the person's language,
 * as the PDF prints them in the client's (src/modules/billing/invoices/rules.ts translatedKind);
 * any other kind as typed.
 */
export function kindText(t: Translate<KindTexts>, kind: string): string {
  const label = kindLabel(kind);
  if (label === DEFAULT_KIND) return t('kinds.service');
  if (label === IMPORTED_EXPENSE_KIND) return t('kinds.expense');
  if (label === PRODUCT_KIND) return t('kinds.product');
  if (label === RETAINER_KIND) return t('kinds.retainer');
  return label;
}
