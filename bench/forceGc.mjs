// Preloaded into a server started with --expose-gc by bench/nodeSoak.ts: a full garbage collection every
// second, so that any native object whose finaliser runs at collection (the better-sqlite3 < 13
// statement that aborts Node >= 24.19) is collected while the town runs.
if (typeof globalThis.gc !== 'function') throw new Error('forceGc.mjs needs node --expose-gc');
setInterval(() => globalThis.gc(), 1000).unref();
