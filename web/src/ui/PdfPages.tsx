import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
// The worker is a file of our own build (same origin: the CSP's script-src 'self' covers it); no CDN.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { Alert } from './Alert.tsx';

GlobalWorkerOptions.workerSrc = workerUrl;

/** The keys of a PDF preview's texts, the same in every area's catalog (`pdf.*`). */
type PdfKey = 'pdf.pageOf' | 'pdf.drawing' | 'pdf.cannotDraw' | 'pdf.notShown' | 'pdf.preview';

/** A document's preview texts from an area's `pdf.*` texts; `number` names the document in each page's name. */
export const pdfTexts = (t: (key: PdfKey, values?: Record<string, unknown>) => string, number: string): PdfTexts => ({
  pageOf: (page, pages) => t('pdf.pageOf', { page, pages, number }),
  drawing: t('pdf.drawing'),
  cannotDraw: t('pdf.cannotDraw'),
  notShown: (reason) => t('pdf.notShown', { reason }),
  preview: t('pdf.preview'),
});

export interface PdfTexts {
  /** The name of page `page` of `pages` (each canvas is an image with this name). */
  pageOf: (page: number, pages: number) => string;
  drawing: string;
  cannotDraw: string;
  notShown: (reason: string) => string;
  preview: string;
}

/**
 * A PDF's bytes drawn page by page onto canvases with pdf.js: the CSP forbids frames
 * and objects, and a canvas needs neither. Import it lazily (pdf.js is large), as the
 * invoice and estimate pages do.
 */
export default function PdfPages({ data, errorMessage, texts }: { data?: ArrayBuffer; errorMessage?: string; texts: PdfTexts }) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'drawing' | 'done' | string>('drawing');
  const { pageOf, cannotDraw } = texts;

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
        canvas.setAttribute('aria-label', pageOf(n, pdf.numPages));
        canvas.className = 'max-w-full rounded-sm border border-stone-200 bg-white shadow-xs';
        target.append(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) setState('done');
    })().catch((e: unknown) => {
      if (!cancelled) setState(e instanceof Error ? e.message : cannotDraw);
    });
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [data, pageOf, cannotDraw]);

  if (errorMessage) return <Alert>{errorMessage}</Alert>;
  return (
    <div className="flex flex-col gap-2">
      {(!data || state === 'drawing') && (
        <p role="status" className="text-sm text-stone-600">
          {texts.drawing}
        </p>
      )}
      {state !== 'drawing' && state !== 'done' && <Alert>{texts.notShown(state)}</Alert>}
      <div ref={box} className="flex flex-col items-center gap-4" aria-label={texts.preview} role="group" />
    </div>
  );
}
