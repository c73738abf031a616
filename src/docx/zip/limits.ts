/** Caps that keep a hostile upload (zip bomb, entry flood) from exhausting the service. */
export interface ReadLimits {
  /** Size of the .docx file itself. */
  maxCompressedBytes: number;
  /** Sum of the declared (and, while inflating, the actual) sizes of all entries. */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** Largest uncompressed/compressed ratio of one entry larger than 1 MB (XML rarely exceeds 100). */
  maxCompressionRatio?: number;
}

export const DEFAULT_LIMITS: Required<ReadLimits> = {
  maxCompressedBytes: 100 * 1024 * 1024,
  maxUncompressedBytes: 400 * 1024 * 1024,
  maxEntries: 2000,
  maxCompressionRatio: 1000,
};
