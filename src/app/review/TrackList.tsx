import { memo, useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { isTypingTarget } from '../keyboard/shortcuts';
import type { ReviewController, ShownItem } from './controller';
import { memberNumbers, membersOf } from './entries';
import { citedPage, kindLabel, placeLabel, placeTitle, STATE_CLASS, STATE_LABEL, type PageCitation } from './labels';
import { takenWithText } from './taken';

/**
 * The lawyer is typing in a field or has a dialog open: the focus stays there whatever arrives
 * meanwhile (a batch's answer, the draft rendered again). It follows the current change only
 * from the document or the list.
 */
function busyElsewhere(active: Element | null): boolean {
  return isTypingTarget(active) || active?.closest('dialog[open]') != null;
}

export function optionDomId(id: string): string {
  return `change-option-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/**
 * The track as an ARIA listbox ("Changes"), one option per change, multi-selectable for
 * batches. Focus is roving: the current change's option is the one tab stop and holds the
 * focus while the reviewer walks the list, so screen readers announce each change.
 */
export function TrackList({
  controller,
  shown,
  currentId,
  selected,
  focusSeq,
  pageOf,
  labelOf = () => undefined,
}: {
  controller: ReviewController;
  shown: readonly ShownItem[];
  currentId: string | null;
  selected: ReadonlySet<string>;
  /** Changes when a key asks for the focus to move to the current option. */
  focusSeq: number;
  /** The page each change is on in the laid-out draft (DocumentView's onPages). */
  pageOf?: (changeId: string) => PageCitation | null;
  /** A change's label by its id: for "Rejected with Change 44". */
  labelOf?: (changeId: string) => string | undefined;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const focusSeen = useRef(0);
  const tabStop = shown.some((s) => s.item.id === currentId) ? currentId : (shown[0]?.item.id ?? null);

  // Focus and reveal the current option in the same frame as the key press (the brief asks
  // for the next change focused within 100 ms; this is one render, well under that).
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !currentId) return;
    const option = document.getElementById(optionDomId(currentId));
    if (!option) return;
    const listHasFocus = list.contains(document.activeElement);
    if (focusSeq !== focusSeen.current || listHasFocus) {
      focusSeen.current = focusSeq;
      if (document.activeElement !== option && !busyElsewhere(document.activeElement)) option.focus({ preventScroll: true });
    }
    revealOption(list, option);
  }, [currentId, focusSeq, shown]);

  // The list keeps the current change in view when it changes size too: the phone's panel
  // opening, a notice above it appearing, the window turning.
  const currentRef = useRef(currentId);
  useLayoutEffect(() => {
    currentRef.current = currentId;
  }, [currentId]);
  const empty = shown.length === 0;
  const groups = groupChanges(shown);
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const option = currentRef.current ? document.getElementById(optionDomId(currentRef.current)) : null;
      if (option) revealOption(list, option);
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, [empty]);

  // The listbox's own keys (WAI-ARIA listbox pattern); these are not single-character
  // shortcuts, so they work even when the shortcuts are turned off.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    controller.requestFocus();
    const handled = (() => {
      switch (event.key) {
        case 'ArrowDown':
          controller.move(1);
          return true;
        case 'ArrowUp':
          controller.move(-1);
          return true;
        case 'Home':
          controller.moveToEdge('first');
          return true;
        case 'End':
          controller.moveToEdge('last');
          return true;
        case ' ':
          controller.toggleSelected();
          return true;
        default:
          return false;
      }
    })();
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  if (shown.length === 0) {
    return (
      <div role="listbox" aria-label="Changes" className="flex-1 overflow-auto p-4 text-sm text-ink-soft" tabIndex={0}>
        <div role="option" aria-selected="false" aria-disabled="true">No change matches these filters.</div>
      </div>
    );
  }

  return (
    <div
      ref={listRef}
      role="listbox"
      aria-label="Changes"
      aria-multiselectable="true"
      className="min-h-0 flex-1 overflow-auto md:min-h-32"
      onKeyDown={onKeyDown}
    >
      {groups.map((group) => {
        const options = group.items.map((s) => (
          <ChangeOption
            key={s.item.id}
            entry={s}
            current={s.item.id === currentId}
            tabStop={s.item.id === tabStop}
            selected={selected.has(s.item.id)}
            controller={controller}
            page={citedPage(pageOf?.(s.item.id), s.item.page, s.item.pageLabel)}
            takenWith={takenWithText(s.item, s.state, labelOf)}
          />
        ));
        const chunks = chunked(options, group.key);
        if (!group.label) return chunks;
        const headingId = `${optionDomId('group')}-${group.key}`;
        return (
          <div key={group.key} role="group" aria-labelledby={headingId}>
            <div id={headingId} role="presentation" className="border-b border-line bg-canvas px-3 py-1 text-xs font-medium uppercase tracking-wide text-ink-soft">
              {group.label}
            </div>
            {chunks}
          </div>
        );
      })}
    </div>
  );
}

/** Rows a chunk of the list holds; a list shorter than two chunks is not cut. */
const CHUNK_ROWS = 25;

/**
 * The options in chunks of CHUNK_ROWS (styles.css: .rl-list-chunk), which the browser lays out and
 * paints only near the view: on a 3,000-change draft a key press otherwise re-checks every row.
 * The chunks are presentational; the options stay the listbox's own for assistive technology.
 */
function chunked(options: ReactElement[], key: string): ReactElement[] {
  if (options.length < 2 * CHUNK_ROWS) return options;
  const out: ReactElement[] = [];
  for (let i = 0; i < options.length; i += CHUNK_ROWS) {
    out.push(
      <div key={`${key}-${i}`} role="none" className="rl-list-chunk">
        {options.slice(i, i + CHUNK_ROWS)}
      </div>,
    );
  }
  return out;
}

/**
 * Changes in the styles and numbering parts apply to the whole document and have no place in
 * the text: they get their own group at the top (the controller walks them first too).
 */
function groupChanges(shown: readonly ShownItem[]): { key: string; label: string | null; items: readonly ShownItem[] }[] {
  const wide = shown.filter((s) => s.item.documentWide);
  if (wide.length === 0) return [{ key: 'all', label: null, items: shown }];
  return [
    { key: 'wide', label: `Document-wide changes (styles, numbering)`, items: wide },
    { key: 'text', label: 'In the text', items: shown.filter((s) => !s.item.documentWide) },
  ];
}

/**
 * Scrolls the list so the option is in view with a row of context on either side: the next
 * change is then always visible too, and a key press never lands on a row at the very edge.
 */
function revealOption(list: HTMLElement, option: HTMLElement): void {
  const view = list.getBoundingClientRect();
  if (view.height === 0) return;
  const box = option.getBoundingClientRect();
  const margin = Math.min(box.height, view.height / 4);
  if (box.top < view.top + margin) list.scrollTop -= view.top + margin - box.top;
  else if (box.bottom > view.bottom - margin) list.scrollTop += box.bottom - (view.bottom - margin);
}

/** One option; memoised so a key press re-renders only the rows whose state changed. */
const ChangeOption = memo(function ChangeOption({
  entry,
  current,
  tabStop,
  selected,
  controller,
  page,
  takenWith,
}: {
  entry: ShownItem;
  current: boolean;
  tabStop: boolean;
  selected: boolean;
  controller: ReviewController;
  page: PageCitation | null;
  /** "Rejected with Change 44" when another change's decision took this one. */
  takenWith: string | null;
}) {
  const { item, state, pending } = entry;
  // The changes a scattered entry holds, listed under it when it is current (its title gives only their span).
  const listed = entry.members ? memberNumbers(entry.members.map((m) => m.item.label)) : null;
  return (
    <div
      id={optionDomId(item.id)}
      role="option"
      aria-selected={selected}
      aria-current={current ? 'true' : undefined}
      tabIndex={tabStop ? 0 : -1}
      data-change-id={item.id}
      // The changes the entry decides (its members, or itself): what the draft highlights when it is current.
      data-members={membersOf(entry).map((m) => m.item.id).join(' ')}
      data-state={state}
      className={`cursor-pointer border-b border-line px-3 py-2 text-sm ${current ? 'bg-here' : selected ? 'bg-accent/10' : 'bg-paper hover:bg-canvas'} ${
        current ? 'border-l-4 border-l-brand pl-2' : ''
      }`}
      onClick={() => controller.setCurrent(item.id)}
      onFocus={() => controller.setCurrent(item.id)}
    >
      {/* Wraps between its parts, never inside one: the title is short (entries.ts groupLabel), the rest may go to a second line. */}
      <div className="flex flex-wrap items-center gap-x-2">
        <span className="inline-block w-4 text-center" aria-hidden="true">{selected ? '☑' : '☐'}</span>
        <span className="shrink-0 whitespace-nowrap font-semibold" data-testid="entry-title">{item.label}</span>
        <span className="shrink-0 whitespace-nowrap text-ink-soft">{kindLabel(item.kind, item.move)}</span>
        <span className="shrink-0 whitespace-nowrap text-ink-soft" data-testid="change-place" title={placeTitle(page)}>{placeLabel(page, item.clause)}</span>
        <span className="min-w-0 flex-1 basis-0 truncate text-ink-soft">{item.author ? `· ${item.author}` : ''}</span>
        <span className={`ml-auto shrink-0 rounded border px-1.5 text-xs font-medium ${STATE_CLASS[state]}`}>
          {STATE_LABEL[state]}
          {pending ? ' · saving' : ''}
        </span>
      </div>
      {item.textPreview && (
        <p className={`mt-0.5 line-clamp-2 pl-6 ${state === 'open' ? '' : 'text-ink-soft'} ${item.kind === 'delete' && !entry.members ? 'line-through' : ''}`}>
          {item.textPreview}
        </p>
      )}
      {takenWith && !pending && <p className="mt-0.5 pl-6 text-xs text-ink-soft" data-testid="taken-with">{takenWith}</p>}
      {current && listed && <p className="mt-0.5 pl-6 text-xs break-words text-ink-soft" data-testid="entry-members">Changes {listed}</p>}
      {item.note && state !== 'open' && <p className="mt-0.5 truncate pl-6 text-xs text-ink-soft">Note: {item.note}</p>}
    </div>
  );
});
