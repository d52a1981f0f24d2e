import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import PdfPages from '../../ui/PdfPages.tsx';
import { pdfQuery, type Invoice } from './api.ts';
import { useInvoiceTexts } from './texts.ts';

/**
 * The invoice's PDF (GET /api/v2/invoices/:id/pdf, the same document the client gets)
 * drawn in the page (ui/PdfPages.tsx). This module, with pdf.js, is its own chunk,
 * loaded on request.
 */
export default function PdfPreview({ invoice }: { invoice: Invoice }) {
  const t = useInvoiceTexts();
  const { data, error } = useQuery(pdfQuery(invoice.id, invoice.updated_at));
  const texts = useMemo(
    () => ({
      pageOf: (page: number, pages: number) => t('pdf.pageOf', { page, pages, number: invoice.number }),
      drawing: t('pdf.drawing'),
      cannotDraw: t('pdf.cannotDraw'),
      notShown: (reason: string) => t('pdf.notShown', { reason }),
      preview: t('pdf.preview'),
    }),
    [t, invoice.number],
  );
  if (error) return <Alert>{describeError(error).message}</Alert>;
  if (!data) {
    return (
      <p role="status" className="text-sm text-stone-600">
        {texts.drawing}
      </p>
    );
  }
  return <PdfPages data={data} texts={texts} />;
}
