import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RedlineEdit, type ReviewResponse } from '../../contract/review';
import { ProblemError } from '../http/problem';
import type { ReviewService } from '../review/review-service';
import type { UploadsService } from '../uploads/uploads-service';

/** Who the tools act as: the connector session's user, for its one organisation. */
export interface ToolActor {
  userId: string;
  orgId: string;
}

const DocumentId = z.string().min(1).max(200).describe('The id of a working draft (from list_documents).');
const ChangeIds = z.array(z.string().min(1).max(200)).max(10_000);

/**
 * What a tool answers about a draft: the review without the .docx bytes (an agent reads
 * revisions and the track; megabytes of base64 would only fill its context).
 */
function reviewSummary(review: ReviewResponse) {
  return { document: review.document, revisions: review.revisions, track: review.track };
}

function ok(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

/** A refusal the agent can act on: the service's problem details, as the tool's error result. */
async function run(work: () => Promise<object>): Promise<CallToolResult> {
  try {
    return ok(await work());
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const problem = error.toProblem();
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(problem) }], structuredContent: { problem } };
  }
}

/**
 * The MCP server of one request: the agent's tools, bound to the caller. They call the
 * service's own logic in-process, so the same rules hold as on the HTTP routes (the
 * organisation check, atomic batches, 403 not_own_proposal for withdrawing others' changes).
 */
export function createMcpServer(actor: ToolActor, services: { uploads: UploadsService; review: ReviewService }): McpServer {
  const { uploads, review } = services;
  const server = new McpServer({ name: 'redline', version: '1.0.0' }, {
    instructions: 'Redline holds contract drafts with tracked changes. List documents, read a working draft\'s review, propose redlines (each with a justification), decide changes, and withdraw your own proposals.',
  });

  server.registerTool('list_documents', {
    description: 'List the organisation\'s documents (uploads), newest first. Working drafts have versionKind "working_draft".',
    inputSchema: {
      purpose: z.enum(['source_doc', 'playbook']).optional(),
      cursor: z.string().max(500).optional().describe('nextCursor of the previous page'),
      limit: z.number().int().min(1).max(100).optional(),
    },
    annotations: { readOnlyHint: true },
  }, async (args) => run(() => uploads.list(actor.orgId, args)));

  server.registerTool('get_review', {
    description: 'Read a working draft: its tracked revisions (kind, author, text preview, justification) and the track (open, accepted "in", rejected "back").',
    inputSchema: { documentId: DocumentId },
    annotations: { readOnlyHint: true },
  }, async ({ documentId }) => run(async () => reviewSummary(await review.review(actor, documentId))));

  server.registerTool('propose_redlines', {
    description: 'Propose tracked changes to a working draft, each with a justification shown to the reviewer. op "replace" replaces `find` with `text`, "insert" inserts `text` after `find`, "delete" deletes `find`.',
    inputSchema: {
      documentId: DocumentId,
      edits: z.array(RedlineEdit.extend({ justification: z.string().min(1).max(10_000) })).min(1).max(500),
      author: z.string().min(1).max(200).optional().describe('Author name on the tracked changes (default: the user\'s name).'),
    },
  }, async ({ documentId, edits, author }) =>
    run(async () => reviewSummary(await review.redlines(actor, documentId, { edits, ...(author ? { author } : {}) }))));

  server.registerTool('apply_decisions', {
    description: 'Accept and reject tracked changes of a working draft, as one atomic batch recorded in the track.',
    inputSchema: { documentId: DocumentId, accept: ChangeIds.default([]), reject: ChangeIds.default([]) },
    annotations: { destructiveHint: true },
  }, async ({ documentId, accept, reject }) =>
    run(async () => reviewSummary(await review.apply(actor, documentId, { accept, reject, recordDecision: true }))));

  server.registerTool('revert_revisions', {
    description: 'Withdraw your own proposals (made with propose_redlines): they leave the document and the track without being recorded as a reviewer\'s rejection. Other changes are refused (not_own_proposal).',
    inputSchema: { documentId: DocumentId, changeIds: ChangeIds.min(1) },
    annotations: { destructiveHint: true },
  }, async ({ documentId, changeIds }) =>
    run(async () => reviewSummary(await review.apply(actor, documentId, { accept: [], reject: changeIds, recordDecision: false }))));

  return server;
}
