import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeError } from '../../api/errors.ts';
import PdfPages, { pdfTexts } from '../../ui/PdfPages.tsx';
import { pdfQuery, type Estimate } from './api.ts';
import { useEstimateTexts } from './texts.ts';

/** The estimate's PDF (the document the client gets) drawn in the page; its own chunk with pdf.js, loaded on request. */
export default function PdfPreview({ estimate }: { estimate: Estimate }) {
  const t = useEstimateTexts();
  const { data, error } = useQuery(pdfQuery(estimate.id, estimate.updated_at));
  const texts = useMemo(() => pdfTexts(t, estimate.number), [t, estimate.number]);
  return <PdfPages data={data} errorMessage={error ? describeError(error).message : undefined} texts={texts} />;
}
