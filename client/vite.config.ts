import { defineConfig } from 'vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// Used both by `vite build --config client/vite.config.ts` and by the server's dev mode (middleware).
export default defineConfig({
  root: here,
  publicDir: path.join(here, 'public'),
  resolve: { alias: { '@protocol': path.resolve(here, '../server/src/protocol') } },
  build: {
    outDir: path.resolve(here, '../dist/client'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    // Three pages: the town (index.html), the analysis page (analysis.html, served at /analysis) and the
    // persona editor (personas.html, served at /personas).
    rollupOptions: { input: { main: path.join(here, 'index.html'), analysis: path.join(here, 'analysis.html'), personas: path.join(here, 'personas.html') } },
  },
  logLevel: 'warn',
});
