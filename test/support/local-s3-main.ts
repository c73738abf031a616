/** Runs the local S3 server and prints its description as one JSON line (see local-s3-process.ts). */
import { startLocalS3 } from '../../src/service/cluster/local-s3';

const s3 = await startLocalS3(process.argv[2]!);
const { close, ...description } = s3;
process.stdout.write(`${JSON.stringify(description)}\n`);
process.once('SIGTERM', () => void close().then(() => process.exit(0)));
