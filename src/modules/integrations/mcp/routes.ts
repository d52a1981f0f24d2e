import { ApiError, forbidden } from '../../../errors.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';

const notAllowed = () =>
  new ApiError('method_not_allowed', 'This MCP server is stateless: send each JSON-RPC message as a POST to /mcp (there is no SSE stream to open and no session to end).');

let handler: Promise<typeof import('./http.ts')> | undefined;

/**
 * MCP over Streamable HTTP (issue 27 item 2) at /mcp, stateless: each POST builds a
 * server for that request and its caller (http.ts), so any node behind a load
 * balancer answers any message and nothing is kept between requests. Authentication,
 * the rate limit and the personal key's refusal are the API's own (config.access);
 * the tools then call the API with the request's own credential (api-caller.ts),
 * each call counted by the rate limiter as well. Left out of the OpenAPI documents: it is
 * JSON-RPC, described by the MCP specification, not a REST resource.
 */
export async function mcpRoutes(app: TypedApp) {
  const config = { access: 'authenticated' } as const;
  const schema = { hide: true } as Record<string, unknown>;

  app.post('/mcp', { config, schema }, async (request, reply) => {
    // Inner calls carry the request's Authorization; a browser session has none to pass on.
    if (principalOf(request).kind === 'session') throw forbidden('MCP takes an API key (Authorization: Bearer), not a browser session.');
    const { answerMcp } = await (handler ??= import('./http.ts'));
    return answerMcp(app, request, reply);
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config,
      schema,
      handler: async (_request, reply) => {
        reply.header('Allow', 'POST');
        throw notAllowed();
      },
    });
  }
}
