import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { clientString } from '../../contract/client-text';
import { CommentText, TextAnchor, type Comment } from '../../contract/comments';
import { CompareView, WordCompareOptions } from '../../contract/compare';
import { checkRedlineEdit, DecisionNotes, RedlineEditFields, type ReviewResponse } from '../../contract/review';
import { withGroupMembers } from '../../contract/track';
import type { ComparisonsService } from '../compare/comparisons-service';
import type { HeavyLimits } from '../http/heavy-limits';
import { ProblemError } from '../http/problem';
import type { ReviewService } from '../review/review-service';
import type { UploadsService } from '../uploads/uploads-service';
import { registerReadingTools, type ReadingToolServices } from './mcp-reading-tools';
import { withUntrustedNote } from './untrusted-content';
import { registerCheckTools } from '../checks/mcp-check-tools';
import type { ChecksService } from '../checks/checks-service';

/** Who the tools act as: the connector session's user, for its one organisation. */
export interface ToolActor {
  userId: string;
  orgId: string;
}

const DocumentId = clientString().min(1).max(200).describe('The id of a working draft (from list_documents).');
const ChangeIds = z.array(clientString().min(1).max(200)).max(10_000);

/**
 * What a tool answers about a draft: the review without the .docx bytes (an agent reads
 * revisions and the track; megabytes of base64 would only fill its context).
 */
function reviewSummary(review: ReviewResponse) {
  return { document: review.document, revisions: review.revisions, track: review.track };
}

/** What a comment tool answers: the review summary, the draft's comments, and the one written. */
function commentsSummary(answer: ReviewResponse & { comments: Comment[]; commentId?: string }) {
  return { ...reviewSummary(answer), comments: answer.comments, ...(answer.commentId ? { commentId: answer.commentId } : {}) };
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

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
export function createMcpServer(
  actor: ToolActor,
  services: ReadingToolServices & { uploads: UploadsService; review: ReviewService; comparisons: ComparisonsService; checks: ChecksService; heavyLimits?: HeavyLimits },
): McpServer {
  const { uploads, review, comparisons, heavyLimits } = services;
  const server = new McpServer({ name: 'redline', version: '1.0.0' }, {
    instructions: withUntrustedNote('Redline holds contract drafts with tracked changes. List documents; read any document as paragraphs with stable block ids (get_outline first on a long contract, then read_document or search_document); compare two versions into a redline, read a working draft\'s review, propose redlines anchored on block ids (each with a justification, optionally with a comment thread), decide changes, withdraw your own proposals, and read, add and reply to Word comments.'),
  });

  server.registerTool('list_documents', {
    description: withUntrustedNote('List the organisation\'s documents (uploads), newest first. Working drafts have versionKind "working_draft".'),
    inputSchema: {
      purpose: z.enum(['source_doc', 'playbook']).optional(),
      cursor: clientString().max(500).optional().describe('nextCursor of the previous page'),
      limit: z.number().int().min(1).max(100).optional(),
    },
    annotations: { readOnlyHint: true },
  }, async (args) => run(() => uploads.list(actor.orgId, args)));

  server.registerTool('compare_versions', {
    description: withUntrustedNote('Compare a version with an older one into a new working draft (in the series of the newer) carrying every difference as a tracked change by "Comparison", beside the newer version\'s own pending tracked changes (kept under their authors); read it with get_review. `changes` is how many differences were found; `pending` how many pending tracked changes each version held and what was done with them (an older version\'s pending change the newer no longer holds pending is a difference). Identical documents answer `{identical: true}` and make no draft (nothing to review).'),
    inputSchema: {
      uploadId: clientString().min(1).max(200).describe('The newer upload (from list_documents).'),
      against: clientString().min(1).max(200).describe('The older upload to compare it with.'),
      author: clientString().min(1).max(200).optional().describe('Author of the tracked changes (default "Comparison").'),
      options: WordCompareOptions.optional().describe('Word\'s compare options (granularity word|character, ignoreCase, ignoreWhitespace, ignoreFormatting, moves, stories {headersFooters, notes, textBoxes}); defaults as Word\'s.'),
      view: CompareView.optional().describe('"pending" (default): keep the newer version\'s pending tracked changes; "accepted": compare both as if every tracked change were accepted (as Word does); "rejected": as if every one were rejected.'),
    },
  }, async ({ uploadId, against, author, view, options }) =>
    run(async () => {
      // The same per-user budget as POST /uploads/{id}/compare.
      await heavyLimits?.admitKind('compare', actor);
      return comparisons.compare(actor, uploadId, { against, ...(author ? { author } : {}), ...(view ? { view } : {}), ...(options ? { options } : {}) });
    }));

  server.registerTool('get_review', {
    description: withUntrustedNote('Read a working draft: its tracked revisions (kind, author, text preview, justification, `clause`: the numbered clause the change is in as Word shows it, e.g. "7.3(a)", ' +
      '`group`: the edit it belongs to, one entry as Word shows it, summarised in `group_summary`; `move` on a move) and the track (open, accepted "in", rejected "back"). ' +
      'The track\'s `entries` are the edits the reviewer decides, formed as the review began and kept through every decision, each with `takes`: the other open changes that accepting or rejecting it decides too. ' +
      'A decided track item\'s `note` is the reviewer\'s reason for the decision: read it before proposing again.'),
    inputSchema: { documentId: DocumentId },
    annotations: { readOnlyHint: true },
  }, async ({ documentId }) => run(async () => reviewSummary(await review.review(actor, documentId))));

  server.registerTool('propose_redlines', {
    description: withUntrustedNote('Propose tracked changes to a working draft, each with a justification shown to the reviewer. Anchor each edit on a paragraph: `blockId` (and `blockVersion`, so an edit on a paragraph that changed since you read it is refused) from read_document, search_document or get_outline. op "replace" replaces `find` with `text`, "insert" inserts `text` after (or, with position "before", before) `find`, "delete" deletes `find` (find is matched in the block\'s text without deleted text; give occurrence when it occurs more than once, else the edit is refused with every candidate); "insert_paragraph" adds a paragraph with `text` after the block, with its style and numbering (a new clause); "delete_paragraph" deletes the whole paragraph; "replace_paragraph" replaces its whole text. Without blockId, find is searched in the whole draft. Edits act on the body, headers, footers and notes: a paragraph of a comment is refused (block_in_comment). A refused edit (stale_anchor, ambiguous_anchor, anchor_not_found, block_not_found, block_in_comment) writes nothing and names the block and the candidate matches.'),
    inputSchema: {
      documentId: DocumentId,
      edits: z.array(RedlineEditFields.extend({
        justification: clientString().min(1).max(10_000),
        comments: z.array(CommentText).max(20).optional()
          .describe('A Word comment thread on the proposed change: the first text comments on it, the others reply in the same thread.'),
      }).superRefine(checkRedlineEdit)).min(1).max(500),
      author: clientString().min(1).max(200).optional().describe('Author name on the tracked changes (default: the user\'s name).'),
    },
  }, async ({ documentId, edits, author }) =>
    run(async () => reviewSummary(await review.redlines(
      actor, documentId,
      { edits: edits.map(({ comments: _thread, ...edit }) => edit), ...(author ? { author } : {}) },
      undefined,
      undefined,
      edits.map((e) => e.comments),
    ))));

  server.registerTool('list_comments', {
    description: withUntrustedNote('Read the Word comments of a working draft: each with author, date, text, its thread (parentId), resolved state, the changes it covers (changeIds) and the text it is anchored on. Justification comments are flagged.'),
    inputSchema: { documentId: DocumentId },
    annotations: { readOnlyHint: true },
  }, async ({ documentId }) => run(async () => ({ comments: await review.comments(actor, documentId) })));

  server.registerTool('add_comment', {
    description: withUntrustedNote('Add a Word comment to a working draft, on a change (changeId) or on text (anchor: exact text within one paragraph, optional 1-based occurrence). Give exactly one of changeId and anchor.'),
    inputSchema: {
      documentId: DocumentId,
      changeId: clientString().min(1).max(200).optional(),
      anchor: TextAnchor.optional(),
      text: CommentText,
    },
  }, async ({ documentId, changeId, anchor, text }) => run(async () => {
    if ((changeId === undefined) === (anchor === undefined)) {
      throw new ProblemError(400, 'invalid_request', 'Give either changeId or anchor, not both or neither.', { errors: [{ path: 'changeId', message: 'give either changeId or anchor' }] });
    }
    const target = changeId !== undefined ? { changeId } : anchor!;
    return commentsSummary(await review.writeComment(actor, documentId, (author) => ({ op: 'add', target, author, date: now(), text, commentId: '' })));
  }));

  server.registerTool('reply_to_comment', {
    description: withUntrustedNote('Reply in the thread of a Word comment of a working draft (commentId from list_comments).'),
    inputSchema: { documentId: DocumentId, commentId: clientString().min(1).max(200), text: CommentText },
  }, async ({ documentId, commentId, text }) =>
    run(async () => commentsSummary(await review.writeComment(actor, documentId, (author) => ({ op: 'reply', parentId: commentId, author, date: now(), text, commentId: '' })))));

  server.registerTool('apply_decisions', {
    description: withUntrustedNote('Accept and reject tracked changes of a working draft, as one atomic batch recorded in the track.'),
    inputSchema: {
      documentId: DocumentId, accept: ChangeIds.default([]), reject: ChangeIds.default([]),
      notes: DecisionNotes.optional().describe('Why, by change id (only ids this batch decides).'),
    },
    annotations: { destructiveHint: true },
  }, async ({ documentId, accept, reject, notes }) =>
    run(async () => reviewSummary(await review.apply(actor, documentId, { accept, reject, recordDecision: true, ...(notes ? { notes } : {}) }))));

  server.registerTool('revert_revisions', {
    description: withUntrustedNote('Withdraw your own proposals (made with propose_redlines): they leave the document and the track without being recorded as a reviewer\'s rejection. ' +
      'A change withdraws its whole edit group (`group`: a replacement\'s deletion and insertion, a paragraph\'s text and its mark), the members that are your own proposals. Other changes are refused (not_own_proposal).'),
    inputSchema: { documentId: DocumentId, changeIds: ChangeIds.min(1) },
    annotations: { destructiveHint: true },
  }, async ({ documentId, changeIds }) => run(async () => {
    const { track } = await review.review(actor, documentId);
    const ids = track ? withGroupMembers(track.items, changeIds, (item) => item.proposedByUserId === actor.userId) : changeIds;
    return reviewSummary(await review.apply(actor, documentId, { accept: [], reject: ids, recordDecision: false }));
  }));

  registerReadingTools(server, actor, services, run);
  registerCheckTools(server, actor, services.checks, run);

  return server;
}
