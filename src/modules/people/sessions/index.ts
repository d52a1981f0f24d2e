/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { deviceCookie, openSession, withRetryAfter } from './cookies.ts';
export type { SecondFactorChallenge as SecondFactorChallengeBody } from './cookies.ts';
export { sessionsWebRoutes } from './web-routes.ts';
export { PageLanguage, Preferences, SecondFactorChallenge, SecondFactorCode, Session, Token } from './schemas.ts';
export { assertCurrentPassword, issueOperatorSignInLink, sessionBody } from './service.ts';
export type { SessionBody } from './service.ts';
