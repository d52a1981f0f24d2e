/**
 * "Send to" as one line of text: addresses separated by commas or semicolons, each
 * either a bare address or `Name <address>` (as mail programs copy them; the name
 * may be quoted, `"Smith, Ann" <ann@example.com>`). Bare addresses separated only
 * by spaces are split too. The server checks each address again.
 */
export interface Recipient {
  email: string;
  name?: string | null;
}

/** The parts between commas and semicolons that are outside quotes and angle brackets. */
function parts(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let angled = false;
  for (const c of text) {
    if (c === '"' && !angled) quoted = !quoted;
    else if (c === '<' && !quoted) angled = true;
    else if (c === '>' && !quoted) angled = false;
    if ((c === ',' || c === ';') && !quoted && !angled) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((p) => p.trim()).filter(Boolean);
}

const NAMED = /^(.*?)\s*<([^<>]*)>$/s;

export function parseRecipients(text: string): Recipient[] {
  return parts(text).flatMap((part): Recipient[] => {
    const named = NAMED.exec(part);
    if (!named) return part.split(/\s+/).map((email) => ({ email }));
    const name = named[1].trim().replace(/^"(.*)"$/s, '$1').trim();
    const email = named[2].trim();
    return [name ? { email, name } : { email }];
  });
}

/** Recipients as the field shows them: `Name <address>`, or the bare address; a name with a comma or the like in quotes. */
export function formatRecipients(recipients: readonly Recipient[]): string {
  return recipients
    .map((r) => {
      const name = r.name?.trim();
      if (!name) return r.email;
      return `${/[,;<>"]/.test(name) ? `"${name.replace(/"/g, '')}"` : name} <${r.email}>`;
    })
    .join(', ');
}
