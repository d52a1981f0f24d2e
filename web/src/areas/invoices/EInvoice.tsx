import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Link } from '../../ui/Link.tsx';
import { MenuButton } from '../../ui/MenuButton.tsx';
import { useDownloadEInvoice, type Invoice } from './api.ts';
import { describeMissing, E_INVOICE_CHOICES, isEInvoiceChoice, missingFieldsOf, type EInvoiceChoice } from './e-invoice.ts';
import { useEInvoiceTexts } from './e-invoice-texts.ts';

/** The e-invoice downloads beside "Download PDF": a menu of the formats; the outcome shows under the page's header. */
export function EInvoiceMenu({ invoice, onStart, onResult }: { invoice: Invoice; onStart: () => void; onResult: (result: EInvoiceResult) => void }) {
  const t = useEInvoiceTexts();
  const download = useDownloadEInvoice(invoice);
  return (
    <MenuButton
      label={t('menu')}
      isPending={download.isPending}
      actions={E_INVOICE_CHOICES.map((id) => ({ id, label: t(`choices.${id}`) }))}
      onAction={(id) => {
        if (!isEInvoiceChoice(id) || download.isPending) return;
        onStart();
        download.mutate(id, {
          onSuccess: () => onResult({ choice: id }),
          onError: (error) => onResult({ choice: id, error }),
        });
      }}
    />
  );
}

export interface EInvoiceResult {
  choice: EInvoiceChoice;
  error?: unknown;
}

/** What a download or a send with an e-invoice came to: downloaded, the fields it lacks (with where to fill them in), or the error. */
export function EInvoiceOutcome({ invoice, result }: { invoice: Pick<Invoice, 'id' | 'state' | 'client'>; result: EInvoiceResult }) {
  const t = useEInvoiceTexts();
  const format = t(`choices.${result.choice}`);
  if (!result.error) return <Alert tone="success">{t('downloaded', { format })}</Alert>;
  return <EInvoiceError invoice={invoice} choice={result.choice} error={result.error} />;
}

/** An error about an e-invoice: the missing fields as a list of links, or the error's sentence. */
export function EInvoiceError({ invoice, choice, error }: { invoice: Pick<Invoice, 'id' | 'state' | 'client'>; choice: EInvoiceChoice; error: unknown }) {
  const t = useEInvoiceTexts();
  const missing = missingFieldsOf(error);
  if (!missing) return <Alert>{describeError(error).message}</Alert>;
  return (
    <Alert title={t('incomplete', { format: t(`choices.${choice}`) })}>
      <ul className="list-disc space-y-1 pl-5">
        {missing.map((field) => {
          const m = describeMissing(field, invoice, t);
          return <li key={field}>{m.href ? <Link href={m.href}>{m.text}</Link> : m.text}</li>;
        })}
      </ul>
      <p className="mt-2">{t('incompleteHint')}</p>
    </Alert>
  );
}
