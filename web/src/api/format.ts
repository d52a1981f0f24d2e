import { useMemo } from 'react';
import { useWorkspaceSession } from './session.ts';
import { createFormat, type Format } from '../ui/format.ts';
import { LOCALES, isLanguage } from '../ui/i18n.ts';

/**
 * The signed-in person's formatter (web/src/ui/format.ts): their language's locale, their
 * date pattern and duration style, and the workspace's time zone, all from the session.
 * Every page inside the shell shows dates, durations and money through it.
 */
export function useFormat(): Format {
  const { user, workspace } = useWorkspaceSession();
  const { language, date_format, duration_format } = user.preferences;
  return useMemo(
    () =>
      createFormat({
        locale: LOCALES[isLanguage(language) ? language : 'en'],
        timeZone: workspace.timezone,
        durationStyle: duration_format === 'decimal' ? 'decimal' : 'clock',
        dateFormat: date_format,
      }),
    [language, date_format, duration_format, workspace.timezone],
  );
}
