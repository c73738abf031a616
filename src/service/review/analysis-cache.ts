import type { Revision } from '../../contract/revision';
import type { OpenDocx } from '../../docx';
import { ByteBudgetLru } from './byte-budget-lru';

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
 * Builds the analysis from an opened document whose bytes are (or will be) `bytes`; the
 * document is left as it was. The revisions and the render variant's XML are made now, on
 * the calling thread, before this returns, so the caller may change the document afterwards;
 * the variant is compressed meanwhile (off the thread where the codec can). A render variant
 * that cannot be built is null: the app falls back to the content.
 */
export async function analyse(doc: OpenDocx, bytes: Uint8Array | Promise<Uint8Array>, onRenderError: (error: unknown) => void): Promise<Analysis> {
  const revisions = doc.revisions();
  let rendering: Promise<Uint8Array | null>;
  try {
    rendering = doc.renderVariantAsync();
  } catch (error) {
    rendering = Promise.reject(error);
  }
  const [content, variant] = await Promise.all([bytes, rendering.catch((error: unknown) => {
    onRenderError(error);
    return null;
  })]);
  return { revisions, contentBase64: toBase64(content), renderContentBase64: variant && toBase64(variant) };
}

/**
 * Analyses by content hash: content is immutable per hash, so a review read of
 * unchanged content does no XML work. Least recently used entries go first once the
 * cached strings pass the byte budget.
 */
export class AnalysisCache {
  private readonly entries: ByteBudgetLru<Analysis>;

  constructor(budgetBytes: number) {
    this.entries = new ByteBudgetLru(budgetBytes);
  }

  get(sha256: string): Analysis | undefined {
    return this.entries.get(sha256);
  }

  set(sha256: string, analysis: Analysis): void {
    const bytes = 2 * (analysis.contentBase64.length + (analysis.renderContentBase64?.length ?? 0)) + 200 * analysis.revisions.length;
    this.entries.set(sha256, analysis, bytes);
  }
}
