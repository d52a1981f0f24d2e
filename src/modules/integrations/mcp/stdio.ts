import { BadServerUrl, serverUrl } from '../../../server-url.ts';
import { fetchCaller } from './api-caller.ts';

/**
 * `sheaf mcp`: the MCP server over stdio, for an agent that starts it as a process.
 * It never opens a database: every tool calls a Sheaf server's API over HTTP
 * (SHEAF_URL) with a full-access key (SHEAF_API_KEY, SHEAF_WORKSPACE_ID), so it works
 * beside a running server and against a remote one. stdout carries only the protocol.
 */

export interface StdioSettings {
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
}

/** The settings from the environment, or the sentence that says what is missing and how to get it. */
export function stdioSettings(env: Record<string, string | undefined>): StdioSettings | { missing: string } {
  const apiKey = env.SHEAF_API_KEY?.trim();
  const workspaceId = env.SHEAF_WORKSPACE_ID?.trim();
  const baseUrl = env.SHEAF_URL?.trim();
  const missing = [!baseUrl && 'SHEAF_URL (the server, e.g. https://sheaf.example.com)', !apiKey && 'SHEAF_API_KEY', !workspaceId && 'SHEAF_WORKSPACE_ID'].filter(Boolean);
  if (missing.length) {
    return {
      missing:
        `Set ${missing.join(', ')}. A full-access key bound to an agent (or to you) is created by an administrator in the web app ` +
        '(Settings, API and Developers), which also shows the workspace id; or with "sheaf admin key create".',
    };
  }
  let base: string;
  try {
    base = serverUrl(baseUrl!, 'SHEAF_URL');
  } catch (err) {
    if (err instanceof BadServerUrl) return { missing: err.message };
    throw err;
  }
  return { baseUrl: base, apiKey: apiKey!, workspaceId: workspaceId! };
}

/** Serves MCP on stdin/stdout until stdin ends. */
export async function runStdioServer(settings: StdioSettings, version: string): Promise<void> {
  // Loaded here, not at import: the server's start (app.ts imports this area's index) never pays for the SDK.
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('./server.ts')]);
  const api = fetchCaller({ ...settings, userAgent: `sheaf-mcp/${version}` });
  const server = createMcpServer({ api });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
