import type { Kysely } from 'kysely';
import type { DB } from './db/types.ts';
import { countWorkspaces } from './modules/workspace/settings/index.ts';
import { provisionWorkspace } from './provisioning.ts';
import { operatorPrincipal } from './access/operator.ts';
import { createMember, FIRST_OWNER_EMAIL } from './modules/people/users/index.ts';
import { createKey } from './modules/people/credentials/index.ts';
import { issueLink, LINK_LIFETIME_MS } from './auth/one-time-links.ts';

/** What the first start on an empty embedded database created; the key is shown once. */
export interface FirstStart {
  workspace_id: string;
  workspace_name: string;
  owner_email: string;
  key_id: string;
  key: string;
  /** A one-time link token that signs the owner in to the web app (they set a password there). */
  sign_in_token: string;
}

export const FIRST_WORKSPACE_NAME = 'My workspace';

/**
 * First start on an empty embedded database: one workspace, its owner and a
 * full-access key, so `npm start` leads straight to a working API call. Never runs
 * on PostgreSQL, where the operator creates workspaces with `sheaf admin`.
 * Returns null when the database already holds a workspace.
 */
export async function bootstrapEmbedded(db: Kysely<DB>, now: Date = new Date()): Promise<FirstStart | null> {
  if ((await countWorkspaces(db)) > 0) return null;
  const company = await provisionWorkspace(db, { name: FIRST_WORKSPACE_NAME });
  const operator = operatorPrincipal(company.id);
  const owner = await createMember(db, operator, {
    email: FIRST_OWNER_EMAIL,
    first_name: 'Workspace',
    last_name: 'Owner',
    role: 'owner',
  });
  const { secret, credential } = await createKey(db, operator, { userId: owner.user_id, kind: 'integration', name: 'first start' });
  const signInToken = await issueLink(db, owner.user_id, 'sign_in', now);
  return {
    workspace_id: company.id,
    workspace_name: company.name,
    owner_email: owner.email,
    key_id: credential.id,
    key: secret,
    sign_in_token: signInToken,
  };
}

/** The `curl` line that calls GET /api/v2/users/me with a key. */
export function curlUsersMe(baseUrl: string, workspaceId: string, key: string): string {
  return `curl -H "Authorization: Bearer ${key}" -H "Service-Account-Id: ${workspaceId}" ${baseUrl}/api/v2/users/me`;
}

/** The web app's one-time sign-in link (the token rides in the fragment, which no server or proxy log sees). */
export const signInLink = (baseUrl: string, token: string) => `${baseUrl}/sign-in/link#${token}`;

/** The text printed once after the first start. */
export function firstStartMessage(first: FirstStart, baseUrl: string): string {
  return [
    '',
    `Created the workspace "${first.workspace_name}" with an owner (${first.owner_email}).`,
    '',
    `Open the web app and choose the owner's password (this link works once, for ${LINK_LIFETIME_MS.sign_in / 3_600_000} hours):`,
    `  ${signInLink(baseUrl, first.sign_in_token)}`,
    `(Another one: sheaf admin user sign-in-link --workspace ${first.workspace_id} --user ${first.owner_email})`,
    '',
    'Its full-access API key is shown only this once: store it now.',
    '',
    `  Workspace id: ${first.workspace_id}`,
    `  API key:      ${first.key}`,
    '',
    'Try it:',
    `  ${curlUsersMe(baseUrl, first.workspace_id, first.key)}`,
    '',
  ].join('\n');
}
