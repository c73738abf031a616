/**
 * The engine's typed failures. The service maps each to an HTTP answer, so every class carries the
 * machine-readable facts (code, ids, edit index) and a message a person can read as is.
 */

/** Which work limit refused a package (package/work-limits.ts). */
export type WorkLimit = 'story_bytes' | 'paragraphs';

/** What is wrong with the uploaded bytes: not_docx -> 415, invalid_docx -> 422, too_large -> 413. */
export type DocxErrorCode = 'not_docx' | 'invalid_docx' | 'too_large';

export class DocxError extends Error {
  readonly code: DocxErrorCode;
  /** For too_large from a work limit (package/work-limits.ts): which one, so the service can name its setting. */
  readonly limit: WorkLimit | undefined;
  constructor(code: DocxErrorCode, message: string, limit?: WorkLimit) {
    super(message);
    this.name = 'DocxError';
    this.code = code;
    this.limit = limit;
  }
}

/** A decision named change ids the document does not hold; nothing was applied. */
export class UnknownChangeIdsError extends Error {
  readonly ids: string[];
  constructor(ids: string[]) {
    super(`The document has no tracked change with id ${ids.join(', ')}.`);
    this.name = 'UnknownChangeIdsError';
    this.ids = ids;
  }
}

/** A decision listed the same change id both to accept and to reject; nothing was applied. */
export class ConflictingChangeIdsError extends Error {
  readonly ids: string[];
  constructor(ids: string[]) {
    super(`Change id ${ids.join(', ')} cannot be both accepted and rejected.`);
    this.name = 'ConflictingChangeIdsError';
    this.ids = ids;
  }
}

/**
 * A redline edit anchored on a block (issue 25) that cannot be placed exactly: the block is not in
 * the draft, it is a comment's paragraph (edits act on the body, headers, footers and notes), it changed since the version the edit names, or `find` occurs there not at all or
 * more than once without an occurrence. Nothing was changed. `candidates` are the places the
 * edit could have meant: every occurrence (ambiguous), or the case-insensitive ones (absent).
 */
export type EditAnchorProblem = 'block_not_found' | 'block_in_comment' | 'stale_anchor' | 'ambiguous_anchor' | 'anchor_not_found';
export interface AnchorCandidate {
  occurrence: number;
  start: number;
  end: number;
  /** The match with up to 30 characters of text on each side. */
  context: string;
}
export class EditAnchorError extends Error {
  constructor(
    readonly problem: EditAnchorProblem,
    readonly editIndex: number,
    readonly blockId: string,
    message: string,
    readonly candidates: AnchorCandidate[] = [],
    readonly blockText: string | null = null,
  ) {
    super(message);
    this.name = 'EditAnchorError';
  }
}

/** A redline edit's `find` text does not occur (often enough) in the document; nothing was changed. */
export class EditNotFoundError extends Error {
  readonly editIndex: number;
  readonly find: string;
  constructor(editIndex: number, find: string, occurrence: number) {
    const shown = find.length > 60 ? `${find.slice(0, 57)}...` : find;
    super(
      occurrence > 1
        ? `Edit ${editIndex + 1}: occurrence ${occurrence} of "${shown}" was not found in the document.`
        : `Edit ${editIndex + 1}: "${shown}" was not found in the document.`,
    );
    this.name = 'EditNotFoundError';
    this.editIndex = editIndex;
    this.find = find;
  }
}

/** A comment's anchor (a change with no place for comments, or text that does not occur) is not in the draft; nothing was changed. */
export class CommentAnchorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommentAnchorError';
  }
}

/** A comment id the draft does not hold; nothing was changed. */
export class UnknownCommentError extends Error {
  constructor(readonly commentId: string) {
    super(`The draft has no comment ${commentId}.`);
    this.name = 'UnknownCommentError';
  }
}
