import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../../http/route-kit.ts';
import { EmptyBody, ErrorResponses } from '../../../http/schemas.ts';
import { sessionOf } from '../../../http/security.ts';
import { deviceCookie, withRetryAfter } from '../sessions/index.ts';
import { CodeOnly, ConfirmCode, DisableTwoFactor, RecoveryCodes, TwoFactorSetup, TwoFactorState } from './schemas.ts';
import { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, startSetup, twoFactorState } from './service.ts';

/**
 * Your own two-factor sign-in (web-only, a session and CSRF; open also to a session a
 * workspace's requirement holds back, which may do nothing else). docs/decisions.md,
 * "Two-factor codes (issue 28 item 2)".
 */

const web = { access: 'signed-in', web: true } as const;
const tags = ['web'];

export async function twoFactorWebRoutes(app: TypedApp) {
  const from = (request: FastifyRequest) => ({
    address: request.ip,
    device: deviceCookie(request),
    userAgent: request.headers['user-agent'],
    now: app.config.clock(),
  });

  app.get(
    '/web/api/two-factor',
    { config: web, schema: { tags, operationId: 'getTwoFactor', summary: 'Whether you sign in with two-factor codes', response: { 200: TwoFactorState, ...ErrorResponses } } },
    async (request) => twoFactorState(app.db, app.config.secretKeys, sessionOf(request)),
  );

  app.post(
    '/web/api/two-factor/setup',
    {
      config: web,
      schema: {
        tags,
        operationId: 'startTwoFactorSetup',
        summary: 'Start setting up two-factor sign-in: a new secret and its QR code',
        description: 'Nothing changes at sign-in until POST /web/api/two-factor/enable confirms the secret with a code. 409 when it is set up already.',
        body: EmptyBody,
        response: { 200: TwoFactorSetup, ...ErrorResponses },
      },
    },
    async (request) => startSetup(app.db, app.config.secretKeys, sessionOf(request), app.config.clock()),
  );

  app.post(
    '/web/api/two-factor/enable',
    {
      config: web,
      schema: {
        tags,
        operationId: 'enableTwoFactor',
        summary: 'Confirm the set-up secret with a first code: two-factor sign-in is on',
        description: 'Answers the ten recovery codes, this once (only their hashes are kept).',
        body: ConfirmCode,
        response: { 200: RecoveryCodes, ...ErrorResponses },
      },
    },
    async (request) => ({ recovery_codes: await enableTwoFactor(app.db, app.config.secretKeys, sessionOf(request), request.body.code, from(request)) }),
  );

  app.post(
    '/web/api/two-factor/disable',
    {
      config: web,
      schema: {
        tags,
        operationId: 'disableTwoFactor',
        summary: 'Turn two-factor sign-in off',
        description: 'Needs your password (when you have one) and a current code or a recovery code; wrong codes are throttled as failed sign-ins.',
        body: DisableTwoFactor,
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await withRetryAfter(reply, disableTwoFactor(app.db, app.config.secretKeys, sessionOf(request), request.body, from(request)));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/web/api/two-factor/recovery-codes',
    {
      config: web,
      schema: {
        tags,
        operationId: 'regenerateRecoveryCodes',
        summary: 'New recovery codes (the old ones stop working)',
        description: 'Needs a current code or a recovery code; answers the ten new codes, this once.',
        body: CodeOnly,
        response: { 200: RecoveryCodes, ...ErrorResponses },
      },
    },
    async (request, reply) => ({ recovery_codes: await withRetryAfter(reply, regenerateRecoveryCodes(app.db, app.config.secretKeys, sessionOf(request), request.body.code, from(request))) }),
  );
}
