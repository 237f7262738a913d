import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Fixtures are generated once per run (scripts/make-fixtures.ts) before any test file.
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    pool: 'forks',
    // Two test files at a time: most server and browser tests wait on processes, sockets and disks,
    // so on a 2-core machine this halves the wall time (one at a time took 35 minutes).
    maxWorkers: 2,
    // expect.poll waits for what a page or the server shows; its default second is too short on a
    // loaded 2-core machine running two files at once (it returns as soon as the value is there).
    expect: { poll: { timeout: 15_000 } },
  },
});
