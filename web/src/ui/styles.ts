/** Class strings shared by the wrapped components: one visible focus ring for every control (WEB-STYLE 3). */
export const focusRing =
  'outline-none data-focus-visible:outline-2 data-focus-visible:outline-offset-2 data-focus-visible:outline-teal-600';

/** The same ring for elements focused through CSS :focus-visible (plain links, the skip link). */
export const focusRingCss = 'outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600';

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
