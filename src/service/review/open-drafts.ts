import type { OpenDocx } from '../../docx';
import { ByteBudgetLru } from './byte-budget-lru';

/**
 * Drafts kept parsed between batches, by content hash. Parsing the 300-page benchmark draft
 * costs ~110 ms of an apply; a reviewer's next batch finds the draft already open.
 *
 * A document is mutable, so `take` hands it over: the caller owns it (two drafts with the same
 * content cannot share one) and `keep`s it again under the hash of what it now holds, once that
 * content is committed. The content hash makes this safe across instances: a draft another
 * instance changed has another hash, and is parsed afresh. Least recently kept go first once
 * the documents' estimated memory passes the budget.
 */
export class OpenDrafts {
  private readonly docs: ByteBudgetLru<OpenDocx>;

  constructor(budgetBytes: number) {
    this.docs = new ByteBudgetLru(budgetBytes);
  }

  take(sha256: string): OpenDocx | undefined {
    return this.docs.take(sha256);
  }

  /** Whether a document with this content is kept (counts as a use, so it is let go last). */
  has(sha256: string): boolean {
    return this.docs.get(sha256) !== undefined;
  }

  keep(sha256: string, doc: OpenDocx): void {
    this.docs.set(sha256, doc, doc.approximateHeapBytes);
  }

  get size(): number {
    return this.docs.size;
  }
}
