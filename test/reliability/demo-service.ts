import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildKindSample } from '../../src/docx/fixture';
import { DEMO_EMAIL } from '../../src/service/seed';
import { prepareChildDatabase, type ChildDatabase } from './child-database';
import { signInOverHttp, startChildService, type ChildService } from './child-service';
import { ServiceClient } from './service-client';

export interface DemoService {
  service: ChildService;
  /** The demo user, signed in. */
  client: ServiceClient;
  /** Stops the service and removes its database and data. */
  stop(): Promise<void>;
}

/**
 * The real service as its own process on a fresh database (PGlite, or the private Postgres the
 * reliability tests use), seeded with the demo user, signed in, with one small upload done so
 * the service has loaded everything an upload needs.
 */
export async function startDemoService(name: string, env: Record<string, string>): Promise<DemoService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `redline-${name}-`));
  let database: ChildDatabase | null = null;
  let service: ChildService | null = null;
  const stop = async () => {
    await service?.stop();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    database = await prepareChildDatabase(dataDir);
    service = await startChildService({ dataDir, seedDemo: true, ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}), env });
    const client = new ServiceClient(service.url, await signInOverHttp(service.url, DEMO_EMAIL));
    const warm = await client.upload('warm.docx', buildKindSample('insert'));
    if (warm.status !== 201) throw new Error(`the first upload answered ${warm.status}`);
    return { service, client, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
