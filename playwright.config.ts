import path from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8790);
// E2E_BASE_URL: run against a service that is already running (its rate limits must allow
// repeated sign-ins, see `env` below) instead of starting a fresh one.
const EXTERNAL = process.env.E2E_BASE_URL;
// A fresh data directory per run: every run starts from the seeded demo and nothing else.
const DATA_DIR = path.resolve('.tmp/e2e-data');

/**
 * End-to-end tests against the real service (started below) and Debian's Chromium:
 * `npx playwright install` cannot download browsers on this machine. The SPA must already
 * be built (`npm test` runs `vite build` first); the service serves dist/ itself.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: EXTERNAL ?? `http://127.0.0.1:${PORT}`,
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: EXTERNAL ? undefined : {
    command: `rm -rf "${DATA_DIR}" && mkdir -p "${DATA_DIR}" && exec node --import tsx src/service/main.ts`,
    url: `http://127.0.0.1:${PORT}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      // A fresh embedded database every run, whatever the surrounding environment points at
      // (CI sets DATABASE_URL for the integration tests; the e2e service must not share it).
      DATABASE_URL: '',
      BLOB_STORE: 'disk',
      SMTP_URL: '',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      LOG_LEVEL: 'warn',
      // Every test signs the demo user in afresh; the production limits (60 s resend cooldown,
      // 3 sends per IP per minute) would make the suite wait minutes between tests. The limits
      // themselves are covered by the service's own tests.
      RATE_RESEND_COOLDOWN_MS: '0',
      RATE_SENDS_PER_IP_PER_MINUTE: '1000',
      RATE_CODES_PER_ADDRESS_PER_HOUR: '1000',
      RATE_VERIFIES_PER_IP_PER_5_MINUTES: '1000',
      RATE_FAILED_VERIFIES_PER_ADDRESS_PER_HOUR: '1000',
    },
  },
});
