import type { Revision } from '../../contract/revision';
import type { OpenDocx } from '../../docx';

/** What a review shows of one content: revisions (engine's view) and the two encodings. */
export interface Analysis {
  revisions: Revision[];
  contentBase64: string;
  renderContentBase64: string | null;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Builds the analysis from an opened document whose bytes are `bytes`; the document is
 * left as it was. A render variant that cannot be built is null: the app falls back to
 * the content.
 */
export function analyse(doc: OpenDocx, bytes: Uint8Array, onRenderError: (error: unknown) => void): Analysis {
  const revisions = doc.revisions();
  let renderContentBase64: string | null = null;
  try {
    renderContentBase64 = toBase64(doc.renderVariant());
  } catch (error) {
    onRenderError(error);
  }
  return { revisions, contentBase64: toBase64(bytes), renderContentBase64 };
}

/**
 * Analyses by content hash: content is immutable per hash, so a review read of
 * unchanged content does no XML work. Least recently used entries go first once the
 * cached strings pass the byte budget.
 */
export class AnalysisCache {
  private readonly entries = new Map<string, { analysis: Analysis; bytes: number }>();
  private used = 0;

  constructor(private readonly budgetBytes: number) {}

  get(sha256: string): Analysis | undefined {
    const entry = this.entries.get(sha256);
    if (!entry) return undefined;
    this.entries.delete(sha256);
    this.entries.set(sha256, entry);
    return entry.analysis;
  }

  set(sha256: string, analysis: Analysis): void {
    const bytes = 2 * (analysis.contentBase64.length + (analysis.renderContentBase64?.length ?? 0)) + 200 * analysis.revisions.length;
    const existing = this.entries.get(sha256);
    if (existing) {
      this.used -= existing.bytes;
      this.entries.delete(sha256);
    }
    if (bytes > this.budgetBytes) return;
    this.entries.set(sha256, { analysis, bytes });
    this.used += bytes;
    for (const [key, entry] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(key);
      this.used -= entry.bytes;
    }
  }
}
