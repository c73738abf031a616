import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** The part of s3rver (which ships no types) that we use. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverServer;

export interface LocalS3 {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  bucket: string;
  /** s3rver accepts any credentials; these are what our clients send. */
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment that points a service instance at this store. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on loopback, keeping objects under `directory`.
 * For tests, benchmarks and the local cluster; never for production.
 */
export async function startLocalS3(directory: string, options: { port?: number; bucket?: string } = {}): Promise<LocalS3> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const bucket = options.bucket ?? 'redline';
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    env: {
      BLOB_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_FORCE_PATH_STYLE: 'true',
    },
    close: () => server.close(),
  };
}
