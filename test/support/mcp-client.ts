import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { SessionGrant } from '../../src/contract/auth';
import type { ServiceContext } from '../../src/service/context';
import { createMcpServer } from '../../src/service/connector/mcp-tools';

/** A real MCP client connected (in memory) to the service's MCP server as the signed-in person; close it when done. */
export async function mcpClientFor(who: SessionGrant, ctx: ServiceContext): Promise<Client> {
  const server = createMcpServer({ userId: who.user.id, orgId: who.orgId }, ctx);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
