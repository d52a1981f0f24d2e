import type { SVGProps } from 'react';

/** The Reports navigation icon (bars); decorative, as the ui/icons ones. */
export const ReportsIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" {...p}>
    <path d="M4 20h16M7 16v-5M12 16V6M17 16v-8" />
  </svg>
);
