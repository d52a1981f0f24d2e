/**
 * What is wrong with a translated catalog against its English source, in words: a key
 * missing or extra, an empty text, placeholders (`{{name}}`) that differ. One check for
 * the web app's catalogs (ui/i18n.test.ts) and the server's (test/unit/i18n-catalogs.test.ts).
 */
export function catalogProblems(source: object, translated: object): string[] {
  const want = leaves(source);
  const have = leaves(translated);
  const problems: string[] = [];
  for (const key of want.keys()) if (!have.has(key)) problems.push(`${key}: missing`);
  for (const [key, text] of have) {
    const english = want.get(key);
    if (english === undefined) problems.push(`${key}: not in the English catalog`);
    else if (text.trim() === '') problems.push(`${key}: empty`);
    else if (placeholders(text) !== placeholders(english)) problems.push(`${key}: placeholders ${placeholders(text)} instead of ${placeholders(english)}`);
  }
  return problems;
}

function leaves(catalog: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of leaves(value as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort().join(', ');
