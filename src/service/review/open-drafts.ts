import type { OpenDocx } from '../../docx';

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
  private readonly docs = new Map<string, OpenDocx>();
  private used = 0;

  constructor(private readonly budgetBytes: number) {}

  take(sha256: string): OpenDocx | undefined {
    const doc = this.docs.get(sha256);
    if (!doc) return undefined;
    this.docs.delete(sha256);
    this.used -= doc.approximateHeapBytes;
    return doc;
  }

  keep(sha256: string, doc: OpenDocx): void {
    this.take(sha256);
    const size = doc.approximateHeapBytes;
    if (size > this.budgetBytes) return;
    this.docs.set(sha256, doc);
    this.used += size;
    for (const [key, old] of this.docs) {
      if (this.used <= this.budgetBytes) break;
      this.docs.delete(key);
      this.used -= old.approximateHeapBytes;
    }
  }

  get size(): number {
    return this.docs.size;
  }
}
