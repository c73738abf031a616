import { defineConfig } from 'vitest/config';

// Unit and integration tests. Integration tests run against PGlite by default and
// against PostgreSQL when DATABASE_URL is set (see test/support/test-database.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
