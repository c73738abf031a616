import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CHECKS_AUTHOR, CheckView } from '../../contract/checks';
import { clientString } from '../../contract/client-text';
import { withUntrustedNote } from '../connector/untrusted-content';
import type { ChecksService } from './checks-service';

interface Actor {
  userId: string;
  orgId: string;
}

type Run = (work: () => Promise<object>) => Promise<CallToolResult>;

const DraftId = clientString().min(1).max(200).describe('The id of a working draft (from list_documents).');

/** The assistant's checks: the same answers as GET /documents/{id}/checks and POST …/checks/proposals. */
export function registerCheckTools(server: McpServer, actor: Actor, checks: ChecksService, run: Run): void {
  server.registerTool('check_document', {
    description: withUntrustedNote('Run the checks a careful reviewer makes by hand on a draft as accepting (view "accepted", default) or rejecting (view "rejected") every change would leave it: undefined_term (a capitalised term used as defined but defined nowhere), unused_definition, duplicate_definition, term_variant (a misspelt defined term or party name, a defined phrase in lower case), broken_cross_reference ("Section 14.2" citing a clause the draft lacks), numbering_out_of_sequence and placeholder ("[●]", "[insert date]"). Each finding: id, kind, message, blockId (of that view), excerpt, term, reference, page (estimate), clause, causedBy (the change ids whose acceptance, or rejection for view "rejected", brings it; empty when it stands either way) and fix (the exact edit when certain). Run it before proposing redlines, cite the findings, and tell the user what accepting a change would break.'),
    inputSchema: { documentId: DraftId, view: CheckView.optional() },
    annotations: { readOnlyHint: true },
  }, async ({ documentId, view }) => run(() => checks.checks(actor, documentId, view)));

  server.registerTool('propose_check_fixes', {
    description: withUntrustedNote(`Propose the certain fixes of check_document's findings (misspelt terms, lower-case uses) as tracked changes by "${CHECKS_AUTHOR}", each justified by its finding's message. findingIds: ids from check_document (view accepted); default every finding with a fix. Asking again proposes nothing twice; the user reviews and decides the proposals like any other.`),
    inputSchema: { documentId: DraftId, findingIds: z.array(clientString().min(1).max(100)).min(1).max(1000).optional() },
  }, async ({ documentId, findingIds }) => run(() => checks.propose(actor, documentId, findingIds)));
}
