/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { FIRST_OWNER_EMAIL, assertEmailFree, assertValidEmail, emailTaken, isEmailTakenError, isPlaceholderEmail, normalEmail, setEmail } from './email.ts';
export { DATE_FORMATS, DURATION_FORMATS, LANGUAGES, THEMES, preferencesOf } from './preferences.ts';
export { activeHumanMembers, findMembership, membershipsOf } from './queries.ts';
export { usersRoutes } from './routes.ts';
export { ROLES, assertPermissionsFitRole, validateMemberInput } from './rules.ts';
export type { MemberInput } from './rules.ts';
export { createMember, deactivateMember, listMemberships, lockMember, updateMember, updateMemberIn } from './service.ts';
export { mailWorkspaceOf, sendSecurityNotice } from './security-notice.ts';
export type { SecurityChange } from './security-notice.ts';
