import type { ReactNode } from 'react';
import { Logo } from './Logo.tsx';
import { PageHeading } from './PageHeading.tsx';

/** The frame of the signed-out pages: the mark, one card with the page's heading, and a line under it. */
export function AuthLayout({ title, intro, children, footer }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    // Top-aligned, not centred: moving between these pages (cards of other heights) never shifts the mark.
    <div className="flex min-h-dvh flex-col items-center px-4 py-10 sm:py-24">
      <div className="w-full max-w-sm">
        <header className="mb-8 flex justify-center">
          <Logo />
        </header>
        <main className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
          <PageHeading>{title}</PageHeading>
          {intro && <div className="mt-2 text-sm text-stone-600">{intro}</div>}
          <div className="mt-6">{children}</div>
        </main>
        {footer && <div className="mt-6 text-center text-sm text-stone-600">{footer}</div>}
      </div>
    </div>
  );
}
