import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApplyRevisionsBody, ReviewResponse } from '../../../contract/review';
import type { Track } from '../../../contract/track';
import { BATCH_DELAY_MS, ReviewController, type ReviewTransport } from './index';
import type { BatchStore, QueuedBatch } from '../outbox';

/** The outbox as a page keeps it, without IndexedDB: what one page saved, the next page lists. */
class DeviceStore implements BatchStore {
  readonly rows = new Map<string, QueuedBatch>();
  async list() {
    return [...this.rows.values()].sort((a, b) => a.createdAt - b.createdAt);
  }
  async save(batch: QueuedBatch) {
    this.rows.set(batch.key, structuredClone(batch));
  }
  async remove(key: string) {
    this.rows.delete(key);
  }
}

const track: Track = {
  items: ['c1', 'c2', 'c3'].map((id, i) => ({ id, state: 'open' as const, label: `Change ${i + 1}`, kind: 'insert' as const })),
  hereId: 'c1',
  counts: { open: 3, in: 0, back: 0, total: 3 },
};
const review: ReviewResponse = {
  document: {
    id: 'd1', artifactId: null, orgId: 'o1', createdByUserId: 'u1', fileName: 'Draft.docx', sizeBytes: 1,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', purpose: 'source_doc',
    clientReferenceId: null, documentSeriesId: 's1', documentVersion: 2, parentUploadId: 'u0', versionKind: 'working_draft',
    storageKey: null, contentSha256: null, hasBinary: true, status: 'ready', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
  },
  revisions: track.items.map((item, i) => ({ ordinal: i + 1, change_id: item.id, kind: 'insert' as const, text_preview: `text ${i + 1}` })),
  contentBase64: '',
  renderContentBase64: null,
  track,
};

/** A page of the review: its controller, what it sent, and a service that never answers (offline). */
function page(store: BatchStore) {
  const sent: { body: ApplyRevisionsBody; key: string }[] = [];
  const transport: ReviewTransport = {
    apply: (body, key) => {
      sent.push({ body, key });
      return new Promise(() => {});
    },
    undo: () => new Promise(() => {}),
    outbox: store,
    onServerData: () => {},
    refetch: () => {},
  };
  const controller = new ReviewController(transport);
  controller.load(review);
  return { controller, sent };
}

describe('the open batch survives a reload inside the batching delay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is on the device at the decision, and the next page sends it once, with its notes and key', async () => {
    const store = new DeviceStore();
    const first = page(store);
    first.controller.decideCurrent('in');
    first.controller.noteCurrent('Agreed with the client on the call.', () => new Promise(() => {}), 'back');
    // The page goes before BATCH_DELAY_MS: nothing was sent, yet both decisions are kept.
    expect(first.sent).toHaveLength(0);
    const kept = await store.list();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.decisions).toEqual([['c1', 'in'], ['c2', 'back']]);
    expect(kept[0]!.notes).toEqual({ c2: 'Agreed with the client on the call.' });

    const second = page(store);
    second.controller.restore(await store.list());
    expect(second.sent).toHaveLength(1);
    expect(second.sent[0]!.body).toEqual({ accepted_change_ids: ['c1'], rejected_change_ids: ['c2'], notes: { c2: 'Agreed with the client on the call.' } });
    expect(second.sent[0]!.key).toBe(kept[0]!.key);
    expect(second.controller.getSnapshot().items.map((s) => s.state)).toEqual(['in', 'back', 'open']);
  });

  it('goes under the key it was kept under when the delay ends, and a withdrawn open batch leaves nothing behind', async () => {
    const store = new DeviceStore();
    const one = page(store);
    one.controller.decideCurrent('in');
    const key = (await store.list())[0]!.key;
    vi.advanceTimersByTime(BATCH_DELAY_MS);
    expect(one.sent.map((s) => s.key)).toEqual([key]);
    expect([...store.rows.keys()]).toEqual([key]);

    const otherStore = new DeviceStore();
    const two = page(otherStore);
    two.controller.decideCurrent('back');
    expect(otherStore.rows.size).toBe(1);
    two.controller.undo();
    await Promise.resolve();
    expect(otherStore.rows.size).toBe(0);
    vi.advanceTimersByTime(BATCH_DELAY_MS);
    expect(two.sent).toHaveLength(0);
  });
});
