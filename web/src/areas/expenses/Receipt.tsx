import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { receiptQuery, type Expense } from './api.ts';
import { useExpenseTexts } from './texts.ts';

/** Image types a browser draws (HEIC/HEIF receipts, from iPhones, download instead). */
const DRAWABLE = new Set(['image/png', 'image/jpeg', 'image/gif']);

export const isDrawable = (contentType: string) => DRAWABLE.has(contentType);

/** An unused blob: URL is revoked this long after its component let go of it. */
const REVOKE_AFTER_MS = 30_000;

/**
 * A blob: URL for a blob while the component shows it, revoked a while after. Not at
 * once: an <img> still loading the old URL (a newer receipt just replaced it, or the
 * page is being left) would fail with ERR_FILE_NOT_FOUND.
 */
export function useObjectUrl(blob: Blob | undefined | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => void setTimeout(() => URL.revokeObjectURL(made), REVOKE_AFTER_MS);
  }, [blob]);
  return url;
}

const linkClass = cx('rounded-xs font-medium text-teal-800 underline decoration-teal-800/40 underline-offset-2', focusRingCss);

/**
 * An expense's receipt: an image as a thumbnail (its bytes fetched through the API,
 * drawn from a blob: URL), anything else (PDF, HEIC) as a download link; both download
 * the original file (the API sends it as an attachment).
 */
export function ReceiptPreview({ expense, size = 'small' }: { expense: Pick<Expense, 'id' | 'updated_at' | 'receipt' | 'receipt_download_url'>; size?: 'small' | 'large' }) {
  const t = useExpenseTexts();
  const receipt = expense.receipt;
  const drawable = !!receipt && isDrawable(receipt.content_type);
  const { data: blob, isError } = useQuery({ ...receiptQuery(expense), enabled: drawable });
  const url = useObjectUrl(blob);
  if (!receipt || !expense.receipt_download_url) return null;
  const kind = receipt.content_type === 'application/pdf' ? 'PDF' : receipt.content_type.replace('image/', '').toUpperCase();
  if (!drawable || isError) {
    return (
      <a href={expense.receipt_download_url} download={receipt.file_name} className={linkClass}>
        <span aria-hidden="true">{kind}</span>
        <span className="sr-only">{t('receipt.link', { kind, name: receipt.file_name })}</span>
      </a>
    );
  }
  const box = size === 'small' ? 'size-12' : 'max-h-64 max-w-full';
  return (
    <a href={expense.receipt_download_url} download={receipt.file_name} className={cx('inline-block rounded-sm', focusRingCss)}>
      {url ? (
        <img src={url} alt={t('receipt.image', { name: receipt.file_name })} className={cx(box, 'rounded-sm border border-stone-200 bg-white object-cover', size === 'large' && 'object-contain')} />
      ) : (
        <span className={cx('block animate-pulse rounded-sm bg-stone-100', size === 'small' ? 'size-12' : 'h-40 w-32')}>
          <span className="sr-only">{t('receipt.loading', { name: receipt.file_name })}</span>
        </span>
      )}
    </a>
  );
}
