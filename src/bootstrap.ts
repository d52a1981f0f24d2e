import type { Kysely } from 'kysely';
import type { DB } from './db/types.ts';
import { countWorkspaces, createWorkspace } from './modules/workspaces/service.ts';
import { createMember } from './modules/users/admin-service.ts';
import { createKey } from './modules/credentials/service.ts';

/**
 * First start on an empty embedded database: one workspace, its owner and a
 * full-access key, so `npm start` leads straight to a working API call. Never runs
 * on PostgreSQL, where the operator creates workspaces with `sheaf admin`.
 */
export async function bootstrapEmbedded(db: Kysely<DB>, baseUrl: string): Promise<string | null> {
  if ((await countWorkspaces(db)) > 0) return null;
  const company = await createWorkspace(db, { name: 'My workspace' });
  const owner = await createMember(db, company.id, {
    email: 'owner@example.com',
    first_name: 'Workspace',
    last_name: 'Owner',
    role: 'owner',
  });
  const { secret } = await createKey(db, company.id, { userId: owner.user_id, kind: 'integration', name: 'first start' });
  return [
    '',
    'Created the workspace "My workspace" with an owner (owner@example.com).',
    'Its full-access API key is shown only this once: store it now.',
    '',
    `  Workspace id: ${company.id}`,
    `  API key:      ${secret}`,
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${secret}" -H "Service-Account-Id: ${company.id}" ${baseUrl}/api/v2/users/me`,
    '',
  ].join('\n');
}
