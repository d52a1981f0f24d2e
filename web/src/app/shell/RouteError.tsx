import type { ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NOT_AVAILABLE_STATUS } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { Logo } from '../../ui/Logo.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';

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
  const stale = isStaleChunk(error);
  return (
    <ErrorFrame
      title={stale ? 'Sheaf was updated' : 'This page could not be shown'}
      text={stale ? 'Reload the page to get the new version.' : describeError(error).message}
    >
      <Button onPress={() => window.location.reload()}>Reload</Button>
      <Link href="/">Go to the start page</Link>
    </ErrorFrame>
  );
}

export function NotFound() {
  return (
    <ErrorFrame title="Page not found" text="There is no page at this address. It may have moved, or the link may be mistyped.">
      <Link href="/">Go to the start page</Link>
    </ErrorFrame>
  );
}

/**
 * A page the role may not use, reached by a typed or old address (the navigation does not
 * offer it): said plainly, inside the shell, instead of a form the server would refuse.
 * The route guards (api/access.ts guardPage) throw it.
 */
export function NotAvailable() {
  return (
    <ErrorFrame title="Not available to your role" text="This page is not available to your role in this workspace. Ask an owner or administrator if you need it.">
      <Link href="/">Go to the start page</Link>
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
