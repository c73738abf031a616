import type { CheckKind } from '../../contract/checks';
import type { Story } from '../../contract/reading';

/** A paragraph as the checks read it: a paragraph block of the reading model (reading/blocks.ts), in document order. */
export interface CheckParagraph {
  id: string;
  text: string;
  /** The engine's clause label ("7.3(a)") of a numbered paragraph. */
  numbering?: string;
  heading?: number;
  style?: string;
  story: Story;
}

/** A range of one paragraph's text: `block` is the paragraph's index in the list checked. */
export interface Place {
  block: number;
  start: number;
  end: number;
}

/**
 * A finding as one view of the document gives it, before the views are compared: where it is,
 * and the places that make it (`evidence`), so the changes that brought it can be named.
 */
export interface ViewFinding {
  kind: CheckKind;
  /** The defined term (for a variant: the term it should be), or null. */
  term: string | null;
  /** The citation as written ("Section 14.2"), or the clause number for numbering; else null. */
  reference: string | null;
  at: Place;
  excerpt: string;
  message: string;
  /** The text that should replace the excerpt, when the fix is certain. */
  replaceWith: string | null;
  /**
   * How the finding is the same in the other view: `term` findings (one per term: undefined,
   * unused, twice defined) by kind and term; `place` findings (one per occurrence) by kind,
   * term, reference, excerpt and where the excerpt lies in the draft.
   */
  identity: 'term' | 'place';
  /** The places in this view that make the finding (its excerpt, the definitions involved, the paragraphs a numbering runs through). */
  evidence: Place[];
}

/** What a view holds that another view's finding may lack: where each term is defined and used, where each clause is. */
export interface ViewFacts {
  /** By term key (termKey): where it is defined and used. */
  terms: Map<string, { definitions: Place[]; uses: Place[] }>;
  /** By normalised clause reference ("14.2", "schedule 3"): the paragraph that carries it. */
  clauses: Map<string, number>;
}

export interface ViewAnalysis {
  findings: ViewFinding[];
  facts: ViewFacts;
}

export function wholeParagraph(paragraphs: readonly CheckParagraph[], block: number): Place {
  return { block, start: 0, end: paragraphs[block]!.text.length };
}
