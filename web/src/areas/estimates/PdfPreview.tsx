import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import PdfPages from '../../ui/PdfPages.tsx';
import { pdfQuery, type Estimate } from './api.ts';
import { useEstimateTexts } from './texts.ts';

/** The estimate's PDF (the document the client gets) drawn in the page; its own chunk with pdf.js, loaded on request. */
export default function PdfPreview({ estimate }: { estimate: Estimate }) {
  const t = useEstimateTexts();
  const { data, error } = useQuery(pdfQuery(estimate.id, estimate.updated_at));
  const texts = useMemo(
    () => ({
      pageOf: (page: number, pages: number) => t('pdf.pageOf', { page, pages, number: estimate.number }),
      drawing: t('pdf.drawing'),
      cannotDraw: t('pdf.cannotDraw'),
      notShown: (reason: string) => t('pdf.notShown', { reason }),
      preview: t('pdf.preview'),
    }),
    [t, estimate.number],
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
