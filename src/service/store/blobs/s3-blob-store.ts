import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { BlobStoreUnavailableError, type BlobStore } from './blob-store';

export interface S3BlobStoreOptions {
  /** null: the SDK's default AWS endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** null: the SDK's default credential chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Path-style addressing (`endpoint/bucket/key`): what MinIO, s3rver and most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Optional prefix of every key inside the bucket, e.g. `redline/`. */
  keyPrefix?: string;
  /** How long one request may take before the store counts as unreachable. */
  requestTimeoutMs?: number;
}

/**
 * Blobs as objects in an S3-compatible bucket. Only moves bytes: which blobs exist and
 * when they may go is the ContentStore's business (the `blobs` table), so this store
 * never lists the bucket.
 *
 * Checksums are computed and validated only when an operation requires them
 * (WHEN_REQUIRED). With the SDK's newer defaults (WHEN_SUPPORTED) a PUT carries a
 * trailing CRC in aws-chunked encoding, which S3-compatible servers that do not know it
 * store as part of the object: a streamed upload to the local test server came back
 * corrupted. Our keys are SHA-256 content addresses, so integrity is checked end to end
 * by `get` anyway.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore & { readonly client: S3Client } {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    forcePathStyle: options.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: options.requestTimeoutMs ?? 30_000 },
  });
  const prefix = options.keyPrefix ?? '';
  const objectKey = (key: string) => {
    if (!/^[A-Za-z0-9/_-]+$/.test(key) || key.includes('..') || key.startsWith('/')) throw new Error(`invalid blob key ${key}`);
    return `${prefix}${key}`;
  };
  const fail = (operation: string, key: string, error: unknown): never => {
    throw new BlobStoreUnavailableError(`blob store unavailable (${operation} ${key}): ${(error as Error).message}`, { cause: error });
  };
  return {
    kind: 's3',
    client,
    async put(key, bytes) {
      const Key = objectKey(key);
      try {
        // Keys are content addresses: an object already there holds these bytes, so it is
        // not rewritten. Besides saving the transfer, this keeps a reader of that object
        // from racing an overwrite, which not every S3-compatible server makes atomic
        // (s3rver does not: under load a GET during a same-key PUT read a torn file).
        // Safe against the sweep: it deletes the bytes before releasing the registry row
        // that ContentStore.put waits on, so this check runs after any such delete.
        const head = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key })).catch((error: unknown) => {
          if (isMissing(error)) return null;
          throw error;
        });
        if (head && head.ContentLength === bytes.byteLength) return;
        await client.send(new PutObjectCommand({
          Bucket: options.bucket, Key, Body: bytes, ContentLength: bytes.byteLength, ContentType: 'application/octet-stream',
        }));
      } catch (error) {
        fail('put', Key, error);
      }
    },
    async get(key) {
      const Key = objectKey(key);
      // The SDK retries the request, not the reading of the body: a connection cut mid-body
      // (seen under load, when a kept-alive socket is dropped) is retried here.
      for (let attempt = 1; ; attempt++) {
        try {
          const answer = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key }));
          if (!answer.Body) return new Uint8Array(0);
          return await answer.Body.transformToByteArray();
        } catch (error) {
          if (isMissing(error)) return null;
          if (attempt >= 3 || error instanceof S3ServiceException) return fail('get', Key, error);
        }
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      try {
        // S3 answers 204 for a key that is already gone, so deleting twice is harmless.
        await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key }));
      } catch (error) {
        if (isMissing(error)) return;
        fail('delete', Key, error);
      }
    },
    async ping() {
      try {
        // One attempt, short: readiness must answer within a second, and the SDK's own
        // retries would outlast that. HeadBucket needs only s3:ListBucket on the bucket.
        await client.send(new HeadBucketCommand({ Bucket: options.bucket }), { abortSignal: AbortSignal.timeout(900) });
      } catch (error) {
        fail('head bucket', options.bucket, error);
      }
    },
  };
}

function isMissing(error: unknown): boolean {
  // A missing bucket is a misconfigured store, not a missing blob.
  if (error instanceof S3ServiceException) return error.name === 'NoSuchKey' || (error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket');
  return (error as { name?: string } | null)?.name === 'NoSuchKey';
}
