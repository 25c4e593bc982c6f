// Issue 45: spectators made error-level log lines ("Max payload size exceeded", "end of buffer not reached":
// 266 in one fuzz run). A client's unreadable frames are warnings now, one per BAD_FRAME_LOG_EVERY_MS.
import { describe, expect, it } from 'vitest';
import { BAD_FRAME_LOG_EVERY_MS, quietColyseusLogger } from '../../server/src/host/gameServer';

describe("Colyseus's log lines", () => {
  it("logs a client's bad frames at warn, at most one line per interval, with the count left out", () => {
    const lines: Array<[string, string]> = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => lines.push(['warn', m]),
      error: (m: string) => lines.push(['error', m]),
    };
    let now = 0;
    const log = quietColyseusLogger(logger, () => now);
    for (let i = 0; i < 266; i++) log.error(new RangeError(i % 2 ? 'Max payload size exceeded' : 'end of buffer not reached'));
    now += BAD_FRAME_LOG_EVERY_MS;
    log.error('onMessage error:', new Error('end of buffer not reached'));
    expect(lines.filter(([level]) => level === 'error')).toEqual([]);
    expect(lines).toEqual([
      ['warn', 'a client sent a frame the server could not read: end of buffer not reached'],
      ['warn', 'a client sent a frame the server could not read: onMessage error: end of buffer not reached (and 265 more since the last such line)'],
    ]);
    // A server's own error is still an error.
    log.error(new Error('SQLITE_CORRUPT: database disk image is malformed'));
    expect(lines.at(-1)).toEqual(['error', 'SQLITE_CORRUPT: database disk image is malformed']);
  });
});
