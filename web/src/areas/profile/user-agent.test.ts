import { describe, expect, it } from 'vitest';
import { i18n } from '../../ui/i18n.ts';
import { browserName } from './user-agent.ts';

describe('browserName', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['curl/8.5.0', 'curl'],
    ['something else', 'Unknown browser'],
    [null, 'Unknown browser'],
  ])('%s → %s', (ua, name) => expect(browserName(ua)).toBe(name));
});

describe('browserName in German', () => {
  it('says the browser and system in the current language', async () => {
    await i18n.changeLanguage('de');
    try {
      expect(browserName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome unter Linux');
      expect(browserName(null)).toBe('Unbekannter Browser');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
