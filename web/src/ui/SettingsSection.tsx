import type { ReactNode } from 'react';
import { Alert } from './Alert.tsx';
import { PageHeading } from './PageHeading.tsx';

/** A titled card on a settings page (the pages under Settings belong to several areas, which share this file's parts). */
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

/**
 * A page under Settings: its heading and introduction, then the page's data as `children` draws
 * it, or while it loads a placeholder of about the form's height (`placeholder`, a Tailwind
 * height class such as `h-[44rem]`, so the page does not jump), or the error that stopped it.
 */
export function SettingsPage<T>(props: {
  heading: string;
  intro: ReactNode;
  error: string | null;
  data: T | undefined;
  loading: string;
  placeholder: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <PageHeading>{props.heading}</PageHeading>
        <p className="mt-2 text-sm text-stone-600">{props.intro}</p>
      </div>
      {props.error !== null ? (
        <Alert>{props.error}</Alert>
      ) : props.data === undefined ? (
        <div aria-busy="true" className={`${props.placeholder} animate-pulse rounded-lg border border-stone-200 bg-stone-50`}>
          <span className="sr-only">{props.loading}</span>
        </div>
      ) : (
        props.children(props.data)
      )}
    </div>
  );
}
