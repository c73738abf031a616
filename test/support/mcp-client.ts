import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionGrant } from '../../src/contract/auth';
import { createMcpServer } from '../../src/service/connector/mcp-tools';
import type { TestService } from './test-service';

/** The connector's MCP server for a signed-in user, with an assistant's client connected to it in-process. */
export async function connectMcpClient(t: TestService, grant: SessionGrant): Promise<{ client: Client; server: McpServer }> {
  const server = createMcpServer({ userId: grant.user.id, orgId: grant.orgId }, t.ctx);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, server };
}
