import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicUrlOf } from '../../../config.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { openSession } from '../sessions/index.ts';
import { redirectUriOf } from './rules.ts';
import { CallbackQuery, DiscoverQuery, Discovered, SingleSignOnConfig, SingleSignOnInput, StartParams, StartQuery } from './schemas.ts';
import { auditSsoFailure, discoverWorkspaces, finishSignIn, removeSingleSignOn, saveSingleSignOn, singleSignOnState, SsoFailure, startSignIn } from './service.ts';

/**
 * Single sign-on (web-only, docs/decisions.md "Single sign-on (issue 28 item 1)"): the
 * workspace's provider for owners and administrators (/web/api/single-sign-on), and the
 * public sign-in through it (/web/api/sso/…): discovery by e-mail domain, the start that
 * sends the browser to the provider, and the one callback every workspace shares.
 */

const tags = ['web'];
const admin = { access: 'administrator', web: true } as const;
const open = { access: 'public', web: true } as const;
const Redirect = Type.Null({ description: 'A redirect (Location).' });

export async function singleSignOnWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();
  const redirectUri = () => redirectUriOf(publicUrlOf(app.config));

  /** A failed sign-in: recorded in the workspace's log (if one is known), and the sign-in page says why. */
  async function failed(request: FastifyRequest, reply: FastifyReply, err: unknown) {
    if (!(err instanceof SsoFailure)) throw err;
    request.log.info({ sso_error: err.code, detail: err.message }, 'single sign-on failed');
    await auditSsoFailure(app.db, err, { address: request.ip, userAgent: request.headers['user-agent'] });
    return reply.redirect(`/sign-in?sso_error=${err.code}`, 302);
  }

  app.get(
    '/web/api/single-sign-on',
    {
      config: admin,
      schema: { tags, operationId: 'getSingleSignOn', summary: 'The workspace\u2019s single sign-on (never its client secret)', response: { 200: SingleSignOnConfig, ...ErrorResponses } },
    },
    async (request) => singleSignOnState(app.db, app.config.secretKeys, principalOf(request), redirectUri()),
  );

  app.put(
    '/web/api/single-sign-on',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'saveSingleSignOn',
        summary: 'Set up or change the workspace\u2019s single sign-on (OpenID Connect)',
        description:
          'The issuer is checked by discovery (400 naming issuer when no OpenID provider answers). The client secret is sealed with the server\u2019s ' +
          'secret key (409 when the server has none) and never shown again; leave it out to keep the stored one.',
        body: SingleSignOnInput,
        response: { 200: SingleSignOnConfig, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      await saveSingleSignOn(app.db, app.config.secretKeys, p, request.body, now);
      return singleSignOnState(app.db, app.config.secretKeys, p, redirectUri());
    },
  );

  app.delete(
    '/web/api/single-sign-on',
    { config: admin, schema: { tags, operationId: 'removeSingleSignOn', summary: 'Turn single sign-on off', response: { 204: Type.Null(), ...ErrorResponses } } },
    async (request, reply) => {
      await removeSingleSignOn(app.db, principalOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/web/api/sso/discover',
    {
      config: open,
      schema: {
        tags,
        operationId: 'discoverSingleSignOn',
        summary: 'The workspaces whose single sign-on takes this e-mail\u2019s domain (or the one named)',
        description: 'For the sign-in page: each workspace\u2019s id and the name of its sign-in button, nothing else.',
        querystring: DiscoverQuery,
        response: { 200: Discovered, ...ErrorResponses },
      },
    },
    async (request) => discoverWorkspaces(app.db, request.query),
  );

  app.get(
    '/web/api/sso/:workspace_id/start',
    {
      config: open,
      schema: {
        tags,
        operationId: 'startSingleSignOn',
        summary: 'Sign in through the workspace\u2019s identity provider (a redirect to it)',
        description: '302 to the provider (authorization code with PKCE, state and nonce; 10 minutes); 302 to /sign-in?sso_error=provider when it cannot be reached.',
        params: StartParams,
        querystring: StartQuery,
        response: { 302: Redirect, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      try {
        const url = await startSignIn(app.db, app.config.secretKeys, request.params.workspace_id, request.query.next, redirectUri(), now);
        return reply.redirect(url.href, 302);
      } catch (err) {
        return failed(request, reply, err);
      }
    },
  );

  app.get(
    '/web/api/sso/callback',
    {
      config: open,
      schema: {
        tags,
        operationId: 'singleSignOnCallback',
        summary: 'Where the identity provider sends the browser back (one redirect URI for every workspace)',
        description:
          'Opens a session (no second factor: the provider is it) and redirects to where the sign-in started; any failure redirects to ' +
          '/sign-in?sso_error=state|expired|denied|domain|provider|unverified|deactivated.',
        querystring: CallbackQuery,
        response: { 302: Redirect, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      try {
        const raw = request.raw.url ?? '';
        const search = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
        const { userId, companyId, next } = await finishSignIn(app.db, app.config.secretKeys, request.query, new URL(`${redirectUri()}${search}`), now);
        await openSession(app, request, reply, { userId, viaLink: false, companyId, method: 'sso', secondFactorDone: true });
        return reply.redirect(next, 302);
      } catch (err) {
        return failed(request, reply, err);
      }
    },
  );
}
