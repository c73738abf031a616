import { BlobStoreUnavailableError, type BlobStore } from '../../src/service/store/blobs/blob-store';

export type BlobStoreMode = 'up' | 'down' | 'writes-fail';

/**
 * A real blob store behind a switch: `down` refuses everything and `writes-fail`
 * refuses puts only, each with the error the real stores raise when their disk or
 * object store is unreachable. The fault sits at the seam the service already has
 * (ServiceParts.blobs); everything above it runs unchanged.
 */
export class SwitchableBlobStore implements BlobStore {
  mode: BlobStoreMode = 'up';

  constructor(private readonly inner: BlobStore) {}

  get kind(): BlobStore['kind'] {
    return this.inner.kind;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    if (this.mode !== 'up') throw new BlobStoreUnavailableError(`blob store unavailable (fault injected: ${this.mode})`);
    return this.inner.put(key, bytes);
  }

  async get(key: string): Promise<Uint8Array | null> {
    if (this.mode === 'down') throw new BlobStoreUnavailableError('blob store unavailable (fault injected: down)');
    return this.inner.get(key);
  }

  async ping(): Promise<void> {
    if (this.mode === 'down') throw new BlobStoreUnavailableError('blob store unavailable (fault injected: down)');
    return this.inner.ping();
  }

  async delete(key: string): Promise<void> {
    if (this.mode !== 'up') throw new BlobStoreUnavailableError(`blob store unavailable (fault injected: ${this.mode})`);
    return this.inner.delete(key);
  }
}
