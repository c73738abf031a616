import type { Revision } from '../contract/revision';
import { DocxPackage } from './package/package';
import { applyToScans, type Decision } from './revisions/apply';
import { groupChanges, type Change } from './revisions/changes';
import { assignUniqueIds } from './revisions/ids';
import { CommentIndex } from './revisions/justification';
import { previewOf } from './revisions/preview';
import { scanPart, type PartScan } from './revisions/sites';
import { buildRenderVariantIn } from './render/variant';
import { writeRedlinesIn, type RedlineEdit, type RedlineOptions, type RedlineResult } from './redline/write';
import type { ReadLimits } from './zip/limits';

/**
 * One parsed .docx serving several operations: list, apply, redline, render, write. Opening
 * gives every revision a unique id in memory (a no-op for an ingested draft), so change ids
 * always name exactly one change.
 *
 * `renderVariant()` turns this object into the display variant; it snapshots the real bytes and
 * revisions first, so call it last: afterwards `toBytes()` and `revisions()` answer the snapshot
 * and further edits throw.
 */
export class OpenDocx {
  private scans: PartScan[] = [];
  private changes: Change[] = [];
  /** Whether opening had to renumber ids (the bytes are not yet an ingested draft). */
  readonly renumbered: boolean;
  private snapshot: { bytes: Uint8Array; revisions: Revision[] } | null = null;
  /** What toBytes() last produced, while the document has not changed since (a re-zip costs ~150 ms on a large draft). */
  private lastBytes: Uint8Array | null = null;

  private constructor(private readonly pkg: DocxPackage) {
    this.rescan();
    this.renumbered = assignUniqueIds(this.scans);
  }

  static open(bytes: Uint8Array, limits?: Partial<ReadLimits>): OpenDocx {
    return new OpenDocx(DocxPackage.open(bytes, limits));
  }

  private rescan(): void {
    this.scans = this.pkg.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc));
    this.changes = groupChanges(this.scans);
  }

  private mutable(): void {
    if (this.snapshot) throw new Error('This document was turned into its render variant; open it again to change it.');
  }

  get revisionCount(): number {
    return this.snapshot ? this.snapshot.revisions.length : this.changes.length;
  }

  /** Change ids in document order. */
  changeIds(): string[] {
    return this.changes.map((c) => c.changeId);
  }

  revisions(opts: { justifications?: ReadonlyMap<string, string> } = {}): Revision[] {
    if (this.snapshot) return this.snapshot.revisions.map((r) => ({ ...r, justification: opts.justifications?.get(r.change_id) ?? r.justification }));
    const comments = new CommentIndex(this.pkg);
    return this.changes.map((c, i) => {
      const lead = c.sites[0]!;
      // A proposed control has no author or date of its own; its tracked insertion has them.
      const who = lead.type === 'proposed' ? (c.sites[1] ?? lead) : lead;
      return {
        ordinal: i + 1,
        change_id: c.changeId,
        kind: c.kind,
        author: who.el.attr('w:author'),
        date: who.el.attr('w:date'),
        text_preview: previewOf(c.sites),
        justification: opts.justifications?.get(c.changeId) ?? comments.justificationOf(lead),
      };
    });
  }

  /** Accepts and rejects a batch atomically (ids are checked before anything changes). */
  apply(decision: Decision): this {
    this.mutable();
    this.lastBytes = null;
    applyToScans(this.scans, this.changes, decision);
    this.rescan();
    return this;
  }

  writeRedlines(edits: readonly RedlineEdit[], opts: RedlineOptions): RedlineResult['changes'] {
    this.mutable();
    this.lastBytes = null;
    const result = writeRedlinesIn(this.pkg, this.scans, edits, opts);
    this.rescan();
    return result.changes;
  }

  renderVariant(): Uint8Array {
    this.mutable();
    this.snapshot = { bytes: this.lastBytes ?? this.pkg.toBytes(), revisions: this.revisions() };
    buildRenderVariantIn(this.scans, this.changes);
    // A display copy, sent once and never stored: fast deflate beats small.
    return this.pkg.toBytes({ level: 1 });
  }

  toBytes(opts: { forceRewrite?: boolean } = {}): Uint8Array {
    if (this.snapshot) return this.snapshot.bytes;
    if (this.lastBytes && !opts.forceRewrite) return this.lastBytes;
    this.lastBytes = this.pkg.toBytes(opts);
    return this.lastBytes;
  }
}
