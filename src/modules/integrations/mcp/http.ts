import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { injectCaller } from './api-caller.ts';
import { createMcpServer } from './server.ts';

/**
 * One MCP message over Streamable HTTP, stateless: a server for this request and its
 * caller, the SDK's Web-standard transport with JSON answers (no SSE: no tool streams),
 * closed when the answer is out. Loaded at the first /mcp request (routes.ts), so the
 * SDK costs a server's start nothing.
 */
export async function answerMcp(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const server = createMcpServer({ api: injectCaller(app, request), now: app.config.clock });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
    reply.code(response.status);
    response.headers.forEach((value, name) => reply.header(name, value));
    const text = await response.text();
    return reply.send(text === '' ? undefined : text);
  } finally {
    await server.close();
  }
}

/** The request as the transport reads it (the body goes separately, parsed by Fastify). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://localhost${request.url}`, { method: request.method, headers });
}
