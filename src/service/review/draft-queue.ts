/**
 * Runs tasks for the same draft one after another, in arrival order, within this
 * process. Across processes the commit's row lock and its compare-and-set guard the
 * draft; this queue only keeps one instance from racing itself (and retrying) on a
 * busy draft, so concurrent batches from two tabs cost one engine pass each.
 */
export class DraftQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Whether tasks of this draft are running or waiting. */
  has(draftId: string): boolean {
    return this.tails.has(draftId);
  }

  run<T>(draftId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(draftId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.then(() => undefined, () => undefined);
    this.tails.set(draftId, tail);
    void tail.then(() => {
      if (this.tails.get(draftId) === tail) this.tails.delete(draftId);
    });
    return next;
  }
}
