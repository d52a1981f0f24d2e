import { useEffect, useLayoutEffect } from 'react';
import type { Session } from '../api/session.ts';
import { setLanguage } from '../ui/i18n.ts';

/**
 * The signed-in person's display preferences (Settings → Profile) applied to the whole app:
 * the language of the texts (and `lang` for screen readers) and the colour theme (`data-theme`
 * on <html>, which index.css reads; `system` leaves it to the device's setting).
 */
export function useApplyPreferences(preferences: Session['user']['preferences']) {
  const { language, theme } = preferences;
  // Before the first paint: no flash of the browser's language on a page in the person's.
  useLayoutEffect(() => setLanguage(language), [language]);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}
