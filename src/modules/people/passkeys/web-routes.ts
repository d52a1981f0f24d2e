import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../../http/route-kit.ts';
import { EmptyBody, ErrorResponses } from '../../../http/schemas.ts';
import { sessionOf } from '../../../http/security.ts';
import { deviceCookie, openSession, Session, withRetryAfter } from '../sessions/index.ts';
import { AddPasskey, CeremonyOptions, Passkey, PasskeyList, PasskeySignIn, PasskeySignInOptionsBody, RenamePasskey } from './schemas.ts';
import { addPasskey, listPasskeys, passkeySignIn, registrationOptions, relyingPartyOf, removePasskey, renamePasskey, signInOptions } from './service.ts';

/**
 * Passkeys (web-only): your own on the profile (a session and CSRF; open also to a session a
 * workspace's second-factor requirement holds back, since a passkey meets it), and signing in
 * with one (public, as the password sign-in). docs/decisions.md, "Passkeys (issue 28 item 3)".
 */

const signedIn = { access: 'signed-in', web: true } as const;
const open = { access: 'public', web: true } as const;
const tags = ['web'];
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export async function passkeysWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();
  const rp = (request: FastifyRequest) => relyingPartyOf(app.config, request.headers.origin);

  app.get(
    '/web/api/passkeys',
    { config: signedIn, schema: { tags, operationId: 'listPasskeys', summary: 'Your passkeys', response: { 200: PasskeyList, ...ErrorResponses } } },
    async (request) => listPasskeys(app.db, sessionOf(request).user_id),
  );

  app.post(
    '/web/api/passkeys/registration-options',
    {
      config: signedIn,
      schema: {
        tags,
        operationId: 'passkeyRegistrationOptions',
        summary: 'Start adding a passkey: the options for navigator.credentials.create',
        body: EmptyBody,
        response: { 200: CeremonyOptions, ...ErrorResponses },
      },
    },
    async (request) => registrationOptions(app.db, rp(request), sessionOf(request), now()),
  );

  app.post(
    '/web/api/passkeys',
    {
      config: signedIn,
      schema: {
        tags,
        operationId: 'addPasskey',
        summary: 'Add the passkey the browser made for the registration options',
        description: '400 naming `credential` when it does not verify (another challenge, origin or site); 409 when it is added already.',
        body: AddPasskey,
        response: { 201: Passkey, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await addPasskey(app.db, rp(request), sessionOf(request), request.body, now())),
  );

  app.patch(
    '/web/api/passkeys/:id',
    {
      config: signedIn,
      schema: { tags, operationId: 'renamePasskey', summary: 'Rename one of your passkeys', params: IdParams, body: RenamePasskey, response: { 200: Passkey, ...ErrorResponses } },
    },
    async (request) => renamePasskey(app.db, sessionOf(request), request.params.id, request.body.name),
  );

  app.delete(
    '/web/api/passkeys/:id',
    {
      config: signedIn,
      schema: { tags, operationId: 'removePasskey', summary: 'Remove one of your passkeys: it signs in no more', params: IdParams, response: { 204: Type.Null(), ...ErrorResponses } },
    },
    async (request, reply) => {
      await removePasskey(app.db, sessionOf(request), request.params.id, now());
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/web/api/session/passkey-options',
    {
      config: open,
      schema: {
        tags,
        operationId: 'passkeySignInOptions',
        summary: 'Start signing in with a passkey: the options for navigator.credentials.get',
        description: "Without a body's challenge: any passkey of this site, verified by its device. With a sign-in's two-factor challenge: that person's passkeys, as the second step.",
        body: PasskeySignInOptionsBody,
        response: { 200: CeremonyOptions, ...ErrorResponses },
      },
    },
    async (request) => signInOptions(app.db, rp(request), request.body.challenge, now()),
  );

  app.post(
    '/web/api/session/passkey',
    {
      config: open,
      schema: {
        tags,
        operationId: 'signInWithPasskey',
        summary: 'Sign in with the passkey the browser signed the options with',
        description:
          '401 passkey_refused for an unknown passkey or a signature that does not verify (recorded as a failed sign-in); throttled as passwords are (429 with Retry-After).',
        body: PasskeySignIn,
        response: { 200: Session, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const attempt = { ...request.body, address: request.ip, device: deviceCookie(request), userAgent: request.headers['user-agent'], now: now() };
      const pending = await withRetryAfter(reply, passkeySignIn(app.db, rp(request), attempt));
      // A passkey is a second factor (alone it is two: the device and its PIN or biometrics).
      const body = await openSession(app, request, reply, { ...pending, secondFactorDone: true });
      if ('second_factor_required' in body) throw new Error('openSession asked for a second factor after a passkey');
      return body;
    },
  );
}
