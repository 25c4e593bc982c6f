// `npm start`'s entry point (compiled to dist/server/start.js beside the server bundle): Node's compile
// cache on (the bundle's compiled code is kept in the system's temporary folder, so a restart skips
// most of the compiling), then the server. index.ts flushes the cache once the town is serving.
import module from 'node:module';

module.enableCompileCache?.();
await import('./index.js');
