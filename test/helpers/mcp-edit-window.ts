import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FreshHandbook, type FreshView } from '../../src/mcp/fresh-handbook.js';

/**
 * An MCP server in this process over a FreshHandbook whose next answer meets the edits queued with
 * `editAfterNextSync`, made after its sync and before the tool or page reads: the window, however
 * short, in which an answer is read from a handbook behind the disk. A test makes it at will,
 * where a server's is a race with the editor. `register` adds the tools or pages under test;
 * `close` ends the client and the handbook.
 */
export async function serverWithEditWindow(
  repo: string,
  register: (server: McpServer, fresh: FreshHandbook) => void,
): Promise<{ client: Client; editAfterNextSync: (edit: () => void) => void; close: () => Promise<void> }> {
  const fresh = new FreshHandbook(repo, { log: () => undefined });
  const edits: Array<() => void> = [];
  const synced = fresh.answer.bind(fresh);
  fresh.answer = <T>(work: (view: FreshView) => Promise<T>): Promise<T> =>
    synced((view) => {
      for (const edit of edits.splice(0)) edit();
      return work(view);
    });
  const server = new McpServer({ name: 'handbook', version: '0.0.0' });
  register(server, fresh);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'handbook-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    editAfterNextSync: (edit) => edits.push(edit),
    close: async () => {
      await client.close();
      await fresh.close();
    },
  };
}
