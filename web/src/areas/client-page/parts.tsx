import type { ReactNode } from 'react';
import { Logo } from '../../ui/Logo.tsx';

/** The client page's frame: the logo and one card, outside the signed-in shell. */
export function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-stone-50 px-4 py-8 sm:py-12">
      <div className="mx-auto w-full max-w-3xl">
        <header className="mb-6">
          <Logo />
        </header>
        <main className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">{children}</main>
      </div>
    </div>
  );
}

/** Who sends the document, or whom it is for: a label, the name and the address lines. */
export function Party({ label, name, lines }: { label: string; name: string; lines: Array<string | null> }) {
  return (
    <div>
      <p className="text-xs font-semibold text-stone-600 uppercase">{label}</p>
      <p className="mt-0.5 font-medium text-stone-900">{name}</p>
      {lines.filter((l): l is string => Boolean(l)).map((l, n) => (
        <p key={n} className="whitespace-pre-line text-stone-700">
          {l}
        </p>
      ))}
    </div>
  );
}
