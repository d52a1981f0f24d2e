import type { ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NOT_AVAILABLE_STATUS } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { Logo } from '../../ui/Logo.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { useTexts } from '../texts.ts';

/** Chunks named in an old index.html are gone after an upgrade: that is a reload, not a failure. */
const isStaleChunk = (error: unknown) =>
  error instanceof TypeError && /dynamically imported module|module script|Importing a module script failed/i.test(error.message);

/**
 * What a page that failed shows: a heading, a sentence, and the way on. Never the
 * error's text or a stack trace (the browser console has those for developers).
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === NOT_AVAILABLE_STATUS) return <NotAvailable />;
  const t = useTexts();
  const stale = isStaleChunk(error);
  return (
    <ErrorFrame
      title={stale ? t('error.updated') : t('error.notShown')}
      text={stale ? t('error.reloadForNew') : describeError(error).message}
    >
      <Button onPress={() => window.location.reload()}>{t('error.reload')}</Button>
      <Link href="/">{t('error.toStart')}</Link>
    </ErrorFrame>
  );
}

export function NotFound() {
  const t = useTexts();
  return (
    <ErrorFrame title={t('error.notFound')} text={t('error.notFoundText')}>
      <Link href="/">{t('error.toStart')}</Link>
    </ErrorFrame>
  );
}

/**
 * A page the role may not use, reached by a typed or old address (the navigation does not
 * offer it): said plainly, inside the shell, instead of a form the server would refuse.
 * The route guards (api/access.ts guardPage) throw it.
 */
export function NotAvailable() {
  const t = useTexts();
  return (
    <ErrorFrame title={t('error.notAvailable')} text={t('error.notAvailableText')}>
      <Link href="/">{t('error.toStart')}</Link>
    </ErrorFrame>
  );
}

function ErrorFrame({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <div className="flex max-w-lg flex-col gap-4">
      <PageHeading>{title}</PageHeading>
      <p className="text-stone-700">{text}</p>
      <div className="flex flex-wrap items-center gap-4">{children}</div>
    </div>
  );
}

/** The same, for a failure outside the signed-in frame (before the session is known, or on a signed-out page). */
export function RootError() {
  return (
    <div className="mx-auto flex min-h-dvh max-w-lg flex-col gap-10 px-4 py-10 sm:py-24">
      <header>
        <Logo />
      </header>
      <main>
        <RouteError />
      </main>
    </div>
  );
}
