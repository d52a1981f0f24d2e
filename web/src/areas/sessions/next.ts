/**
 * Where to go after signing in: the `next` the session gate put in the URL, if it
 * is a path of this app. Anything else (another origin, `//host`, `/\host`, a
 * scheme) goes home, so a crafted sign-in link cannot send people elsewhere.
 */
export function safeNext(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  if (value === '/sign-in' || value.startsWith('/sign-in?') || value.startsWith('/sign-in/')) return '/';
  return value;
}
