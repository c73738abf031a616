import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BlobStoreUnavailableError, type BlobStore } from './blob-store';

/**
 * Blobs as files under `root`, fanned out by the first characters of the key so no
 * directory grows huge. Writes go to a temporary file and are renamed into place, so
 * a reader never sees half a blob and a crash leaves at most a stray temp file.
 */
export function createDiskBlobStore(root: string): BlobStore {
  const fileFor = (key: string) => {
    if (!/^[A-Za-z0-9/_-]+$/.test(key) || key.includes('..')) throw new Error(`invalid blob key ${key}`);
    const name = key.replace(/\//g, '_');
    return path.join(root, name.slice(-64, -62) || '00', name);
  };
  const fail = (error: unknown): never => {
    throw new BlobStoreUnavailableError(`blob store unavailable: ${(error as Error).message}`, { cause: error });
  };
  return {
    kind: 'disk',
    async put(key, bytes) {
      const file = fileFor(key);
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(temp, bytes);
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true }).catch(() => {});
        fail(error);
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(fileFor(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        return fail(error);
      }
    },
    async delete(key) {
      try {
        await rm(fileFor(key), { force: true });
      } catch (error) {
        fail(error);
      }
    },
    async ping() {
      try {
        await mkdir(root, { recursive: true });
        await access(root, constants.R_OK | constants.W_OK);
      } catch (error) {
        fail(error);
      }
    },
  };
}
