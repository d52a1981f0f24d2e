import { Suspense, useState, type ReactNode } from 'react';
import { buttonClass } from './Button.tsx';

/**
 * A document page's PDF section: a heading and a button; the preview (`children`, a lazy
 * component with pdf.js) is mounted only once asked for, so its chunk never loads with the page.
 */
export function PdfSection({ id, heading, showLabel, loadingLabel, children }: { id: string; heading: string; showLabel: string; loadingLabel: string; children: ReactNode }) {
  const [shown, setShown] = useState(false);
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {heading}
      </h2>
      {shown ? (
        <Suspense
          fallback={
            <p role="status" className="text-sm text-stone-600">
              {loadingLabel}
            </p>
          }
        >
          {children}
        </Suspense>
      ) : (
        <div>
          <button type="button" className={buttonClass('secondary')} onClick={() => setShown(true)}>
            {showLabel}
          </button>
        </div>
      )}
    </section>
  );
}
