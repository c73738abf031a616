import { defineConfig } from 'vitest/config';

// Unit and integration tests. Integration tests run against PGlite by default and
// against PostgreSQL when DATABASE_URL is set (see src/service/store/test-db.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['src/service/testing/global-setup.ts'],
  },
});
