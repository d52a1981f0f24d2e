import type { SVGProps } from 'react';

/** The Clients entry's icon in the navigation (decorative: the link carries the name). */
export const ClientIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" {...props}>
    <path d="M4 20.5V6.5l7-3v17" />
    <path d="M11 9.5h9v11" />
    <path d="M2.5 20.5h19M7 8.5v.01M7 12v.01M7 15.5v.01M14.5 13h2M14.5 16.5h2" />
  </svg>
);
