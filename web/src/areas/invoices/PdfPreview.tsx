import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeError } from '../../api/errors.ts';
import PdfPages, { pdfTexts } from '../../ui/PdfPages.tsx';
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
  const texts = useMemo(() => pdfTexts(t, invoice.number), [t, invoice.number]);
  return <PdfPages data={data} errorMessage={error ? describeError(error).message : undefined} texts={texts} />;
}
