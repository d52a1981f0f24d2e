import { isId } from '../ids.ts';
import { resealAll } from '../auth/sealed-columns.ts';
import { resetTwoFactor } from '../modules/people/two-factor/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace, resolveUser } from './lookups.ts';
import { required, workspaceOption } from './options.ts';
import { print, UsageError } from './output.ts';

/**
 * What only the server's operator does about two-factor sign-in: turn it off for a person who
 * lost their phone and their recovery codes, and seal the stored secrets with a new
 * SHEAF_SECRET_KEY (docs/decisions.md, "Secrets at rest"). Requiring it of a workspace is
 * `sheaf admin workspace settings --require-two-factor true`.
 */

const reset: AdminCommand<{ id: string; user: string }> = {
  name: 'admin two-factor reset',
  usage: '--workspace ID --user ID|EMAIL',
  summary: "turn off a member's two-factor sign-in (a lost phone): their next sign-in asks for the password alone, or a new set-up where required; they are e-mailed",
  options: { workspace: str, user: str },
  parse(values) {
    const user = required(values, 'user');
    if (!user.includes('@') && !isId(user)) throw new UsageError(`--user must be a user id or an e-mail address, not '${user}'.`);
    return { id: workspaceOption(values), user };
  },
  async run({ db, output, clock }, input) {
    await requireWorkspace(db, input.id);
    const userId = await resolveUser(db, input.id, input.user);
    const had = await resetTwoFactor(db, userId, clock());
    print(output, { user_id: userId, two_factor_was_on: had }, () =>
      had ? `Two-factor sign-in is off for ${input.user}; they were told by e-mail.` : `${input.user} had no two-factor sign-in; nothing changed.`,
    );
  },
};

const rotate: AdminCommand<null> = {
  name: 'admin secret-key rotate',
  usage: '',
  summary: 'seal every stored secret (two-factor secrets, single sign-on client secrets) with SHEAF_SECRET_KEY (the old key in SHEAF_SECRET_KEY_PREVIOUS until this has run)',
  options: {},
  parse: () => null,
  async run({ db, output, secretKeys }) {
    if (secretKeys.length === 0) throw new UsageError('Set SHEAF_SECRET_KEY to the new key, and SHEAF_SECRET_KEY_PREVIOUS to the old one.');
    const result = await resealAll(db, secretKeys);
    print(output, result, () =>
      `Sealed ${result.resealed} secret(s) with the current key; ${result.current} already were. SHEAF_SECRET_KEY_PREVIOUS may now go.`,
    );
  },
};

/** The commands by name, for the command table of src/cli/main.ts. */
export const twoFactorCommands: Record<string, AdminCommand<any>> = { reset, rotate };
