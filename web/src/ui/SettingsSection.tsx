import type { ReactNode } from 'react';

/** A titled card on a settings page (the pages under Settings belong to several areas, which share it from here). */
export function SettingsSection({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-stone-200 bg-white p-5 shadow-xs sm:p-6">
      <h2 id={id} className="text-base font-semibold text-stone-900">
        {title}
      </h2>
      {description && <div className="mt-1 text-sm text-stone-600">{description}</div>}
      <div className="mt-5">{children}</div>
    </section>
  );
}
