import type { Track, TrackState } from '../../../contract/track';
import { entriesOf, membersOf } from '../entries';
import type { Filters, ReviewSnapshot, ShownItem } from './types';

/** What the list shows: the track with the pending decisions laid over it, grouped and filtered. */
export type ListView = Pick<ReviewSnapshot, 'items' | 'shown' | 'entryById' | 'counts'>;

/**
 * The list as it stands: the service's track, each pending layer laid over it in order (the
 * oldest request first, the open batch last), one entry per edit, counted and filtered.
 * `previous` lets unchanged items and entries keep their objects, so memoised rows skip re-rendering.
 */
export function listView(track: Track | null, layers: readonly ReadonlyMap<string, TrackState>[], filters: Filters, previous: ListView | undefined): ListView {
  const previousById = new Map(previous?.items.map((s) => [s.item.id, s]));
  const items: ShownItem[] = (track?.items ?? []).map((item) => {
    let state: TrackState = item.state;
    let pending = false;
    for (const layer of layers) {
      const s = layer.get(item.id);
      if (s !== undefined) {
        state = s;
        pending = true;
      }
    }
    const old = previousById.get(item.id);
    return old && old.item === item && old.state === state && old.pending === pending ? old : { item, state, pending };
  });
  const entries = entriesOf(items, new Map(previous?.shown.map((s) => [s.item.id, s])));
  const entryById = new Map<string, ShownItem>();
  for (const entry of entries) for (const m of membersOf(entry)) entryById.set(m.item.id, entry);
  // Progress counts what the reviewer decides: edits, as the list shows them.
  const counts = { open: 0, in: 0, back: 0, total: 0 };
  for (const entry of entries) {
    counts[entry.state]++;
    counts.total++;
  }
  // Document-wide changes (styles, numbering) are listed, and walked, first. An edit is shown
  // when any of its changes is of the kind and author asked for.
  const { kind, author, state } = filters;
  const shown = [...entries.filter((s) => s.item.documentWide), ...entries.filter((s) => !s.item.documentWide)].filter(
    (s) =>
      membersOf(s).some((m) => (kind === 'all' || m.item.kind === kind) && (author === 'all' || (m.item.author ?? '') === author)) &&
      (state === 'all' || s.state === state),
  );
  return { items, shown, entryById, counts };
}
