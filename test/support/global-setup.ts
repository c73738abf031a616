import { ensurePgliteTemplate } from './test-database';

/** Builds the PGlite template once per test run, before the workers start. */
export default async function setup(): Promise<void> {
  if (!process.env.DATABASE_URL) await ensurePgliteTemplate();
}
