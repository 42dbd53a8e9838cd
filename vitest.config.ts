import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          // One embedded database (≈1 GB, seconds to open) serves every server test file in turn.
          pool: 'forks',
          fileParallelism: false,
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A cheap scrypt cost for the hundreds of passwords the suites hash (server/src/accounts/password.ts);
          // the tests of the cost itself run at the production one.
          env: { QH_TEST_PASSWORD_HASH: 'fast' },
        },
      },
      {
        test: {
          name: 'e2e',
          // The data directory a first start makes, once for the run (tests/support/prepared-data.ts).
          globalSetup: ['tests/support/prepared-data.setup.ts'],
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // Each file runs the real built server and a real Chromium; two at once would starve 2 cores.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 240_000,
          // The servers these files start hash every password they register at the cheap test cost too.
          env: { QH_TEST_PASSWORD_HASH: 'fast' },
        },
      },
      {
        test: {
          name: 'faults',
          // The data directory a first start makes, once for the run (tests/support/prepared-data.ts).
          globalSetup: ['tests/support/prepared-data.setup.ts'],
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          // Real server processes killed, starved and restarted: one file at a time on 2 cores.
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'load',
          // The data directory a first start makes, once for the run (tests/support/prepared-data.ts).
          globalSetup: ['tests/support/prepared-data.setup.ts'],
          include: ['tests/load/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 600_000,
          // Creating 200 accounts is 400 scrypt hashes at N=2^17 (≈ 0.3 s of CPU each) before the run.
          hookTimeout: 480_000,
        },
      },
      {
        test: {
          name: 'architecture',
          include: ['tests/architecture/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'budgets',
          include: ['tests/budgets/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: './vite.config.ts',
        test: {
          name: 'client',
          include: ['core/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
          environment: 'jsdom',
          // One jsdom per worker, each file still in its own context: a fresh jsdom per file was two thirds of
          // this project's time (docs/performance.md, "CI time").
          pool: 'vmThreads',
          setupFiles: ['tests/setup-client.ts'],
        },
      },
    ],
  },
})
