import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  resolve: {
    alias: { '@protocol': path.resolve(import.meta.dirname, 'server/src/protocol') },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/buildClient.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores here and in CI: more workers only make the browser and build tests slower.
    maxWorkers: 2,
  },
});
