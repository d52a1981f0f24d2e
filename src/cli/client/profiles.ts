import { chmod, mkdir, open, readFile, rename } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { serverUrl } from '../../server-url.ts';
import type { Credentials } from './http.ts';

/**
 * Where the person commands get their server, key and workspace: the
 * environment (SHEAF_URL, SHEAF_API_KEY, SHEAF_WORKSPACE_ID), each overriding
 * the profile's value, or a profile `sheaf login` wrote to
 * $XDG_CONFIG_HOME/sheaf/profiles.json (~/.config/sheaf/profiles.json), a
 * file only its owner may read (0600, in a 0700 directory) because it holds
 * keys. The profile is --profile NAME, else SHEAF_PROFILE, else "default".
 */

export type Env = Record<string, string | undefined>;

export interface Profile {
  url: string;
  workspace_id: string;
  api_key: string;
  /** Who the key acts as, from users/me when the profile was saved (for `sheaf profiles`). */
  user?: { id: string; name: string; email: string };
  workspace_name?: string;
  saved_at?: string;
}

export interface ProfileFile {
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The person commands' failures to find credentials: exit code 5 (docs/cli.md). */
export class NotSignedIn extends Error {}

export function profilesPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'sheaf', 'profiles.json');
}

export const profileName = (env: Env, option?: string) => option || env.SHEAF_PROFILE || DEFAULT_PROFILE;

export async function readProfiles(env: Env): Promise<ProfileFile> {
  let text: string;
  try {
    text = await readFile(profilesPath(env), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as ProfileFile;
    return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  } catch {
    throw new Error(`${profilesPath(env)} is not valid JSON: fix or delete it, then run "sheaf login".`);
  }
}

/**
 * Writes the file whole or not at all (a temporary file renamed over it),
 * created with mode 0600 so the keys are never readable by others, not even
 * for a moment; an existing file's looser mode is tightened too.
 */
export async function writeProfiles(env: Env, file: ProfileFile): Promise<string> {
  const path = profilesPath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(file, null, 2) + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(tmp, 0o600); // a umask cannot widen it, but a pre-existing tmp file could be looser
  await rename(tmp, path);
  return path;
}

/** The credentials for a command: each of the environment's values over the profile's; throws NotSignedIn when a key or workspace is missing. */
export async function resolveCredentials(env: Env, profileOption?: string): Promise<Credentials> {
  const name = profileName(env, profileOption);
  const explicit = Boolean(profileOption || env.SHEAF_PROFILE);
  const file = env.SHEAF_API_KEY && env.SHEAF_WORKSPACE_ID && !explicit ? { profiles: {} } : await readProfiles(env);
  const profile = file.profiles[name];
  if (explicit && !profile) {
    const known = Object.keys(file.profiles);
    throw new NotSignedIn(
      `There is no profile "${name}" in ${profilesPath(env)}${known.length ? ` (there are: ${known.join(', ')})` : ''}: create it with "sheaf login --profile ${name}".`,
    );
  }
  const key = env.SHEAF_API_KEY || profile?.api_key;
  const workspaceId = env.SHEAF_WORKSPACE_ID || profile?.workspace_id;
  if (!key) throw new NotSignedIn(NO_KEY);
  if (!workspaceId) {
    throw new NotSignedIn(
      'No workspace id: set SHEAF_WORKSPACE_ID, or run "sheaf login". The workspace (company) id is shown beside the key in the web app (Settings → API and Developers), and by "sheaf admin workspace list" on the server.',
    );
  }
  const url = serverUrl(env.SHEAF_URL || profile?.url || DEFAULT_URL, env.SHEAF_URL ? 'SHEAF_URL' : profile?.url ? `The url of profile "${name}" (${profilesPath(env)})` : 'The server URL');
  const source = [
    env.SHEAF_API_KEY ? 'SHEAF_API_KEY' : `profile "${name}" (${profilesPath(env)})`,
    env.SHEAF_WORKSPACE_ID && !env.SHEAF_API_KEY ? 'SHEAF_WORKSPACE_ID' : undefined,
  ]
    .filter(Boolean)
    .join(' and ');
  return { url, key, workspaceId, source };
}

export const NO_KEY =
  'No API key. Run "sheaf login" (it asks for the server URL, a key and the workspace id), or set SHEAF_URL, SHEAF_API_KEY and SHEAF_WORKSPACE_ID. ' +
  'A full-access key is created in the web app under Settings → API and Developers (by an owner or administrator, for you or an agent), ' +
  'or on the server with "sheaf admin key create --workspace ID --user EMAIL".';
