/**
 * Class strings shared by the wrapped components: one visible focus ring for every control (WEB-STYLE 3).
 * The ring names its style: Tailwind 4's `outline-hidden` (and `outline-none`) set the style variable that
 * `outline-2` reads to `none`, so a ring of width alone is never drawn. `outline-hidden` rather than `none`
 * keeps a transparent outline that forced-colours mode paints.
 */
export const focusRing =
  'outline-hidden data-focus-visible:outline-2 data-focus-visible:outline-solid data-focus-visible:outline-offset-2 data-focus-visible:outline-teal-600';

/** The same ring for elements focused through CSS :focus-visible (plain links, the skip link). */
export const focusRingCss = 'outline-hidden focus-visible:outline-2 focus-visible:outline-solid focus-visible:outline-offset-2 focus-visible:outline-teal-600';

export const fieldLabel = 'text-sm font-medium text-stone-800';
export const fieldDescription = 'text-sm text-stone-600';
export const fieldError = 'text-sm text-red-700';

export const inputBox =
  'w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-base text-stone-900 shadow-xs sm:text-sm ' +
  'placeholder:text-stone-400 data-hovered:border-stone-400 ' +
  'outline-none data-focused:border-teal-600 data-focused:ring-2 data-focused:ring-teal-600/25 ' +
  'data-invalid:border-red-600 data-invalid:data-focused:ring-red-600/25 data-disabled:bg-stone-100 data-disabled:text-stone-500 ' +
  // Read-only (a retainer's price, a link to copy): shaded like a field that takes nothing, its text still full contrast.
  'read-only:bg-stone-100';

export const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(' ');
