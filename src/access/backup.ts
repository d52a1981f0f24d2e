import type { Principal } from '../auth/principal.ts';
import { isAdmin } from './policy.ts';

/**
 * The workspace backup (the spec's permissions table, "Backup"): owners and
 * administrators of the selected workspace, with a full-access key or an
 * identity-provider token. A personal sync key never exports, whatever its
 * owner's role (it is also off its allowlist, so the route guard refuses it
 * first); managers, members and contractors are refused whatever their flags.
 */
export const mayExportBackup = (p: Principal) => p.kind !== 'personal' && isAdmin(p);
