import { operatorPrincipal } from '../access/operator.ts';
import { redirectUriOf, removeSingleSignOn, singleSignOnState } from '../modules/people/single-sign-on/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { workspaceOption } from './options.ts';
import { fields, print } from './output.ts';

/**
 * `sheaf admin sso show|remove`: a workspace's single sign-on as the operator sees it (never
 * the client secret), and turning it off when its identity provider is gone or misconfigured
 * and nobody can reach the Settings page through it. Both call the web app's service as the
 * operator, so removing is recorded in the workspace's audit log like an administrator's.
 */

const show: AdminCommand<string> = {
  name: 'admin sso show',
  usage: '--workspace ID',
  summary: "show the workspace's single sign-on: issuer, client ID, allowed domains, whether passwords still sign in (never the client secret)",
  options: { workspace: str },
  parse: workspaceOption,
  async run({ db, output, baseUrl, secretKeys }, id) {
    await requireWorkspace(db, id);
    const state = await singleSignOnState(db, secretKeys, operatorPrincipal(id), redirectUriOf(baseUrl));
    print(output, state, () => (state.enabled ? fields({ ...state, allowed_domains: state.allowed_domains.join(',') }) : 'Single sign-on is off for this workspace.'));
  },
};

const remove: AdminCommand<string> = {
  name: 'admin sso remove',
  usage: '--workspace ID',
  summary: "turn the workspace's single sign-on off: everyone signs in with a password, link or passkey again",
  options: { workspace: str },
  parse: workspaceOption,
  async run({ db, output }, id) {
    await requireWorkspace(db, id);
    const issuer = await removeSingleSignOn(db, operatorPrincipal(id));
    print(output, { removed: issuer !== null, issuer }, () =>
      issuer !== null ? `Single sign-on through ${issuer} is off; everyone signs in with a password, link or passkey again.` : 'Single sign-on was not set up; nothing changed.',
    );
  },
};

/** The commands by name, for the command table of src/cli/main.ts. */
export const singleSignOnCommands: Record<string, AdminCommand<any>> = { show, remove };
