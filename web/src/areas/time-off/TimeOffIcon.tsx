import type { SVGProps } from 'react';

/** The Time off entry's icon in the navigation, a sun over the horizon (decorative: the link carries the name). */
export const TimeOffIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" {...props}>
    <path d="M7 16a5 5 0 0 1 10 0" />
    <path d="M3 20h18M12 5v2.5M4.9 8.9l1.8 1.8M19.1 8.9l-1.8 1.8M2.5 16H4.5M19.5 16h2" />
  </svg>
);
