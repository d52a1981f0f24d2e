import { useId, type ReactNode } from 'react';

/** A card of the home page, named by its heading (an id of its own: a title in any language may have no ASCII letters to make one of). */
export function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const id = useId();
  return (
    <section className="min-w-0 rounded-lg border border-stone-200 bg-white p-5 shadow-xs" aria-labelledby={id}>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={id} className="text-base font-semibold text-stone-900">
          {title}
        </h2>
        {action && <div className="text-sm">{action}</div>}
      </div>
      {children}
    </section>
  );
}
