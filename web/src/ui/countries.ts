/**
 * Countries for e-invoice addresses: ISO 3166-1 alpha-2 codes, named in the UI's language.
 * The same rule as the server (src/i18n/countries.ts): a code is a country when Intl can
 * name it, except the reserved and user-assigned ranges, the groupings ICU still names, and
 * the withdrawn and exceptionally reserved codes ICU names as a country of today (DD reads
 * "Germany", UK "United Kingdom": an e-invoice needs DE, GB); XI (Northern Ireland) is one, as
 * EN 16931's list takes it. The server checks again.
 */
const NOT_COUNTRIES = /^(AA|Q[M-Z]|X[A-Z]|ZZ|EU|EZ|UN|AN|BU|CS|DD|DY|FX|HV|NH|RH|SU|TP|VD|YD|YU|ZR|UK|AC|CP|DG|EA|IC|TA)$/;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

let codes: string[] | undefined;

/** Every country code, A to Z (computed once). */
export function countryCodes(): string[] {
  if (codes) return codes;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const found: string[] = [];
  for (const a of LETTERS) {
    for (const b of LETTERS) {
      const code = a + b;
      if (code === 'XI' || (!NOT_COUNTRIES.test(code) && names.of(code) !== code)) found.push(code);
    }
  }
  return (codes = found);
}

export interface Country {
  code: string;
  name: string;
}

/**
 * The countries named in `locale`, sorted by name there. XI has no name in Intl: the caller's
 * (translated) one. A stored code the browser does not know is kept, named by its code.
 */
export function countries(locale: string, northernIreland: string, keep?: string | null): Country[] {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const list = countryCodes().map((code) => ({ code, name: code === 'XI' ? northernIreland : (names.of(code) ?? code) }));
  if (keep && !list.some((c) => c.code === keep)) list.push({ code: keep, name: keep });
  const collator = new Intl.Collator(locale);
  return list.sort((x, y) => collator.compare(x.name, y.name));
}
