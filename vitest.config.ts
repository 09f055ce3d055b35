import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/scratch-directory.ts', 'test/setup/real-code.ts', 'test/setup/debian-real-code.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Tests marked concurrent each start a CLI process, which is CPU-bound (a second or more of
    // module loading): more at once than CI's 2 cores only stretches each one and starves the
    // other worker's tests, some of which bound wall time.
    maxConcurrency: 2,
  },
});
