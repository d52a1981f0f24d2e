import type { SVGProps } from 'react';

/** The Estimates entry's icon in the navigation (decorative: the link carries the name). */
export const EstimateIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" {...props}>
    <path d="M7 3.5h7l4 4v13H7z" />
    <path d="M14 3.5v4h4M10 13l1.8 1.8L15 11.5" />
  </svg>
);
