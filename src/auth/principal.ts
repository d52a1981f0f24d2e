import type { ManagerPermission, Role, UserType } from '../db/types.ts';
import type { SessionRow } from './sessions.ts';

/**
 * How the request authenticated: an API key of either kind, an identity-provider JWT, or the web app's session;
 * or 'operator': the operator at the command line (`sheaf admin`, first start), built by src/access/operator.ts.
 */
export type CredentialKind = 'integration' | 'personal' | 'jwt' | 'session' | 'operator';

/**
 * Who acts, for the API, the web routes and the command line alike. A caller is
 * read fresh from the database on every request (no caches), so a
 * change of role, permission, membership or key applies on the next request.
 */
export interface Principal {
  kind: CredentialKind;
  credentialId: string | null;
  companyId: string;
  companyName: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: UserType;
  role: Role;
  permissions: readonly ManagerPermission[];
  isContractor: boolean;
  isActive: boolean;
  /** The browser session, when the web app is calling (kind 'session'). */
  session?: SessionRow;
}
