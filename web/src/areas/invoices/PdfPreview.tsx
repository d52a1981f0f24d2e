import { useQuery } from '@tanstack/react-query';
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
// The worker is a file of our own build (same origin: the CSP's script-src 'self' covers it); no CDN.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { pdfQuery, type Invoice } from './api.ts';
import { useInvoiceTexts } from './texts.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * The invoice's PDF (GET /api/v2/invoices/:id/pdf, the same document the client gets)
 * drawn page by page onto canvases with pdf.js: the CSP forbids frames and objects, and
 * a canvas needs neither. This module, with pdf.js, is its own chunk, loaded on request.
 */
export default function PdfPreview({ invoice }: { invoice: Invoice }) {
  const t = useInvoiceTexts();
  const { data, error } = useQuery(pdfQuery(invoice.id, invoice.updated_at));
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'drawing' | 'done' | string>('drawing');

  useEffect(() => {
    if (!data || !box.current) return;
    const target = box.current;
    let cancelled = false;
    // pdf.js takes the buffer over (transfers it to the worker): give it a copy, the cache keeps the original.
    const task = getDocument({ data: new Uint8Array(data.slice(0)), isEvalSupported: false });
    (async () => {
      const pdf = await task.promise;
      target.replaceChildren();
      for (let n = 1; n <= pdf.numPages && !cancelled; n++) {
        const page = await pdf.getPage(n);
        const width = Math.min(target.clientWidth || 800, 900);
        const base = page.getViewport({ scale: 1 });
        const scale = width / base.width;
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: scale * ratio });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('pdf.pageOf', { page: n, pages: pdf.numPages, number: invoice.number }));
        canvas.className = 'max-w-full rounded-sm border border-stone-200 bg-white shadow-xs';
        target.append(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) setState('done');
    })().catch((e: unknown) => {
      if (!cancelled) setState(e instanceof Error ? e.message : t('pdf.cannotDraw'));
    });
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [data, invoice.number, t]);

  if (error) return <Alert>{describeError(error).message}</Alert>;
  return (
    <div className="flex flex-col gap-2">
      {(!data || state === 'drawing') && (
        <p role="status" className="text-sm text-stone-600">
          {t('pdf.drawing')}
        </p>
      )}
      {state !== 'drawing' && state !== 'done' && <Alert>{t('pdf.notShown', { reason: state })}</Alert>}
      <div ref={box} className="flex flex-col items-center gap-4" aria-label={t('pdf.preview')} role="group" />
    </div>
  );
}
