import { createInterface } from 'node:readline';
import { BadServerUrl, serverUrl } from '../../server-url.ts';
import { str } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand, ClientContext } from './command.ts';
import { grid, show } from './format.ts';
import { ApiClient, ApiRefusal } from './http.ts';
import { me } from './lookups.ts';
import { DEFAULT_URL, NotSignedIn, profileName, profilesPath, readProfiles, writeProfiles, type Profile } from './profiles.ts';

/**
 * `sheaf login`, `sheaf logout`, `sheaf profiles`: the profiles file
 * (profiles.ts). login checks the key with GET /api/v2/users/me before it
 * saves anything, and never prints the key: on a terminal it is typed
 * without echo, otherwise it is read from SHEAF_API_KEY or the first line of
 * stdin (so it never has to be on a command line, where `ps` shows it).
 */

/** A bad --url is a usage error (before any request, with the usage line). */
function usageOf<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw err instanceof BadServerUrl ? new UsageError(err.message) : err;
  }
}
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One line typed at the terminal, on stderr's prompt; `hidden`: nothing is echoed (raw mode, so no line editing beyond backspace). */
async function ask(ctx: ClientContext, question: string, hidden = false): Promise<string> {
  const { stdin } = ctx;
  process.stderr.write(question);
  if (!hidden || !stdin.setRawMode) {
    const rl = createInterface({ input: stdin, terminal: false });
    const answer = await new Promise<string>((resolve) => rl.once('line', resolve).once('close', () => resolve('')));
    rl.close();
    return answer.trim();
  }
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n' || ch === '\u0004') {
            stdin.off('data', onData);
            process.stderr.write('\n');
            return resolve(typed.trim());
          }
          if (ch === '\u0003') {
            stdin.off('data', onData);
            process.stderr.write('\n');
            return reject(new UsageError('Cancelled.'));
          }
          if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
          else typed += ch;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
  }
}

/** The first line of a piped stdin (the key in `echo $KEY | sheaf login …`). */
async function firstLine(ctx: ClientContext): Promise<string> {
  const rl = createInterface({ input: ctx.stdin, terminal: false });
  try {
    for await (const line of rl) return line.trim();
    return '';
  } finally {
    rl.close();
  }
}

const login: ClientCommand<{ url?: string; workspace?: string }> = {
  name: 'login',
  usage: '[--url URL] [--workspace ID]',
  summary:
    'save a server URL, full-access API key and workspace id as a profile (--profile NAME, default "default") after checking them; asks for what is not given (the key without echo; off a terminal from SHEAF_API_KEY or stdin)',
  options: { url: str, workspace: str },
  parse(v) {
    if (v.workspace !== undefined && !ID.test(v.workspace)) throw new UsageError(`--workspace must be a workspace id (a UUID), not '${v.workspace}'.`);
    return { url: v.url === undefined ? undefined : usageOf(() => serverUrl(v.url!, '--url')), workspace: v.workspace };
  },
  async run(ctx, input) {
    const { env, output, stdin } = ctx;
    const name = profileName(env, ctx.profile);
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new UsageError(`A profile name is letters, digits, dot, underscore or hyphen, not '${name}'.`);
    const file = await readProfiles(env);
    const before = file.profiles[name];
    const interactive = stdin.isTTY === true;
    let url = input.url ?? env.SHEAF_URL;
    if (!url && interactive) url = (await ask(ctx, `Server URL [${before?.url ?? DEFAULT_URL}]: `)) || before?.url || DEFAULT_URL;
    url = serverUrl(url ?? before?.url ?? DEFAULT_URL, input.url ? '--url' : env.SHEAF_URL ? 'SHEAF_URL' : 'The server URL');
    let key = env.SHEAF_API_KEY;
    if (!key) key = interactive ? await ask(ctx, 'API key (not shown): ', true) : await firstLine(ctx);
    if (!key) throw new NotSignedIn('No API key given. ' + KEY_SOURCES);
    let workspace = input.workspace ?? env.SHEAF_WORKSPACE_ID;
    if (!workspace && interactive) workspace = (await ask(ctx, `Workspace id${before?.workspace_id ? ` [${before.workspace_id}]` : ''}: `)) || before?.workspace_id;
    workspace ??= before?.workspace_id;
    if (!workspace) throw new UsageError('--workspace is required: the workspace (company) id shown beside the key in Settings → API and Developers.');
    if (!ID.test(workspace)) throw new UsageError(`The workspace id must be a UUID, not '${workspace}'.`);
    const user = await me(new ApiClient({ url, key, workspaceId: workspace, source: 'this login' }));
    const profile: Profile = {
      url,
      workspace_id: workspace,
      api_key: key,
      user: { id: user.id, name: `${user.first_name} ${user.last_name}`.trim(), email: user.email },
      workspace_name: user.company?.name,
      saved_at: new Date().toISOString(),
    };
    file.profiles[name] = profile;
    const path = await writeProfiles(env, file);
    const { api_key: _key, ...shown } = profile;
    show(output, { profile: name, path, ...shown }, () =>
      `Signed in to ${url} as ${profile.user!.name} <${profile.user!.email}> in workspace "${profile.workspace_name ?? workspace}"; saved as profile "${name}" in ${path}.`,
    );
  },
};

const KEY_SOURCES =
  'Type it when asked, or pipe it in (echo "$KEY" | sheaf login --url URL --workspace ID), or set SHEAF_API_KEY. ' +
  'A full-access key is created in the web app under Settings → API and Developers, or on the server with "sheaf admin key create --workspace ID --user EMAIL".';

const logout: ClientCommand<Record<string, never>> = {
  name: 'logout',
  usage: '',
  summary: 'forget a profile and its key (--profile NAME, default "default"); the key itself stays valid until revoked in the web app',
  options: {},
  parse: () => ({}),
  async run(ctx) {
    const { env, output } = ctx;
    const name = profileName(env, ctx.profile);
    const file = await readProfiles(env);
    // Nothing to forget is "not found" (exit 3), as for any name that does not exist.
    if (!file.profiles[name]) throw new ApiRefusal(404, 'profile_not_found', `There is no profile "${name}" in ${profilesPath(env)}.`);
    delete file.profiles[name];
    const path = await writeProfiles(env, file);
    show(output, { profile: name, removed: true, path }, () => `Removed the profile "${name}" from ${path}.`);
  },
};

const profiles: ClientCommand<Record<string, never>> = {
  name: 'profiles',
  usage: '',
  summary: 'the saved profiles: server, workspace and user, never the keys; * marks the one in use (--profile, SHEAF_PROFILE or "default")',
  options: {},
  parse: () => ({}),
  async run(ctx) {
    const { env, output } = ctx;
    const current = profileName(env, ctx.profile);
    const file = await readProfiles(env);
    const rows = Object.entries(file.profiles).map(([name, p]) => ({
      name,
      current: name === current,
      url: p.url,
      workspace_id: p.workspace_id,
      workspace_name: p.workspace_name ?? null,
      user: p.user ?? null,
      saved_at: p.saved_at ?? null,
    }));
    show(output, rows, () =>
      rows.length
        ? grid(rows, [
            { title: '', value: (r) => (r.current ? '*' : ' ') },
            { title: 'profile', value: (r) => r.name },
            { title: 'server', value: (r) => r.url },
            { title: 'workspace', value: (r) => (r.workspace_name ? `${r.workspace_name} (${r.workspace_id})` : r.workspace_id) },
            { title: 'user', value: (r) => (r.user ? `${r.user.name} <${r.user.email}>` : '') },
          ]) + (env.SHEAF_API_KEY ? '\n\nSHEAF_API_KEY is set: it overrides the profile\'s key (and SHEAF_URL, SHEAF_WORKSPACE_ID their values).' : '')
        : `No profiles in ${profilesPath(env)}: create one with "sheaf login".`,
    );
  },
};

const whoami: ClientCommand<Record<string, never>> = {
  name: 'whoami',
  usage: '',
  summary: 'who the key acts as, in which workspace on which server, and where the credentials come from',
  options: {},
  parse: () => ({}),
  async run({ api, output }) {
    const client = await api();
    const user = await me(client);
    const { url, workspaceId, source } = client.credentials;
    show(output, user, () =>
      `${user.first_name} ${user.last_name} <${user.email}> (${user.roles.join(', ')}${user.user_type === 'agent' ? ', agent' : ''}) in workspace "${user.company?.name ?? workspaceId}" (${workspaceId}) on ${url}; key from ${source}.`,
    );
  },
};

export const loginCommands: ClientCommand<any>[] = [login, logout, profiles, whoami];
