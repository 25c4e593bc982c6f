// vitest global setup: builds the client once, so the browser tests load what `npm start` serves.
import { build } from 'vite';

export default async function setup(): Promise<void> {
  await build({ configFile: 'client/vite.config.ts', logLevel: 'error' });
}
