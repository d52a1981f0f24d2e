import type { ReactNode } from 'react';
import { Alert } from './Alert.tsx';
import { PageHeading } from './PageHeading.tsx';

/** A page that only says something: its heading and one notice (e.g. "not available to your role" at a page's address). */
export function NoticePage({ heading, title, children }: { heading: string; title: string; children: ReactNode }) {
  return (
    <div className="flex max-w-2xl flex-col gap-4">
      <PageHeading>{heading}</PageHeading>
      <Alert tone="info" title={title}>
        {children}
      </Alert>
    </div>
  );
}
