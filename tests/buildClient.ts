// vitest global setup: builds the client and the server bundle once, so the browser tests load what
// `npm start` serves and the server-process tests run what `npm start` runs (dist/server/index.js).
import { build } from 'vite';
import { buildServer } from '../scripts/buildServer';

export default async function setup(): Promise<void> {
  await Promise.all([build({ configFile: 'client/vite.config.ts', logLevel: 'error' }), buildServer()]);
}
