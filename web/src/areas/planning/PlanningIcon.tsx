import type { SVGProps } from 'react';

/** The Planning entry's icon in the navigation, a calendar with bars across it (decorative: the link carries the name). */
export const PlanningIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" {...props}>
    <rect x="3.5" y="5" width="17" height="15" rx="1.5" />
    <path d="M3.5 9.5h17M8 3v4M16 3v4M7 13h6M10 16.5h7" />
  </svg>
);
