/** The product's mark and name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 text-lg font-semibold tracking-tight text-stone-900 ${className ?? ''}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7 shrink-0">
        <rect width="32" height="32" rx="7" fill="#115e59" />
        <g fill="none" stroke="#fef3c7" strokeWidth="2.2" strokeLinecap="round">
          <path d="M16 27V12M16 27l-6-13M16 27l6-13" />
          <path d="M11 19h10" />
        </g>
        <g fill="#fcd34d">
          <ellipse cx="16" cy="8" rx="2.4" ry="4" />
          <ellipse cx="9.2" cy="10.5" rx="2.2" ry="3.6" transform="rotate(-25 9.2 10.5)" />
          <ellipse cx="22.8" cy="10.5" rx="2.2" ry="3.6" transform="rotate(25 22.8 10.5)" />
        </g>
      </svg>
      Sheaf
    </span>
  );
}
