import { profileTexts as t } from './texts.ts';

/**
 * A session's browser as people name it ("Firefox on Windows"), from its stored
 * User-Agent. Rough on purpose: it only helps someone recognise their own devices;
 * the full string is kept for a tooltip-free detail line.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/(Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function browserName(userAgent: string | null): string {
  if (!userAgent) return t('unknownBrowser');
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return t('browserOn', { browser, system });
  return browser ?? system ?? t('unknownBrowser');
}
