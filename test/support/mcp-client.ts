import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionGrant } from '../../src/contract/auth';
import type { ServiceContext } from '../../src/service/context';
import { createMcpServer } from '../../src/service/connector/mcp-tools';
import type { TestService } from './test-service';

/** The connector's MCP server for a signed-in user, with an assistant's client connected to it in-process. */
export async function connectMcpClient(t: TestService, grant: SessionGrant): Promise<{ client: Client; server: McpServer }> {
  return connectTo(grant, t.ctx);
}

/** A real MCP client connected (in memory) to the service's MCP server as the signed-in person; close it when done. */
export async function mcpClientFor(who: SessionGrant, ctx: ServiceContext): Promise<Client> {
  return (await connectTo(who, ctx)).client;
}

async function connectTo(grant: SessionGrant, ctx: ServiceContext): Promise<{ client: Client; server: McpServer }> {
  const server = createMcpServer({ userId: grant.user.id, orgId: grant.orgId }, ctx);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, server };
}
