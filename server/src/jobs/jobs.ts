// Wall-clock jobs, on cron schedules from the settings: online backups, the idle check and housekeeping.
// Each run is logged; a failing job says why and the town goes on.
import path from 'node:path';
import fs from 'node:fs';
import cron from 'node-cron';
import type { Config } from '../config';
import type { Town } from '../town/Town';
import type { Logger } from '../town/logger';

/** A real day, for PRUNE_AFTER_DAYS. */
const DAY_MS = 86_400_000;

export interface Jobs {
  stop(): void;
  /** Runs a job now, as its schedule would (for tests and the operator API). */
  run(name: JobName): Promise<void>;
}

export const JOB_NAMES = ['backup', 'idle-check', 'housekeeping'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** Where backups of a world go, and how they are named: <world>-<ISO time>.sqlite. */
export function backupDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'backups');
}

export async function backupWorld(config: Pick<Config, 'dataDir' | 'world' | 'backupKeep'>, town: Town, wallMs: number): Promise<string> {
  const dir = backupDir(config);
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date(wallMs).toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `${config.world}-${stamp}.sqlite`);
  await town.db.backupTo(file);
  const mine = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${config.world}-`) && f.endsWith('.sqlite'))
    .sort();
  for (const old of mine.slice(0, Math.max(0, mine.length - config.backupKeep))) fs.rmSync(path.join(dir, old), { force: true });
  return file;
}

export function startJobs(config: Config, town: Town, logger: Logger): Jobs {
  const bodies: Record<JobName, () => Promise<string>> = {
    backup: async () => `backup written to ${await backupWorld(config, town, town.wallClock.now())}`,
    'idle-check': async () => {
      const before = town.holds.has('idle');
      town.holds.checkIdle(town.wallClock.now(), config.idlePauseMinutes);
      const after = town.holds.has('idle');
      return before === after ? '' : after ? `nobody has watched for ${config.idlePauseMinutes} min: clock paused` : 'watched again';
    },
    housekeeping: async () => {
      const pruned = config.pruneAfterDays > 0 ? town.db.prune(town.wallClock.now() - config.pruneAfterDays * DAY_MS) : 0;
      town.db.checkpoint();
      return `wal checkpointed${pruned ? `, ${pruned} old rows pruned` : ''}`;
    },
  };
  const run = async (name: JobName) => {
    try {
      const message = await bodies[name]();
      if (message) logger.info(`job ${name}: ${message}`);
      else logger.debug(`job ${name}: ok`);
    } catch (error) {
      logger.warn(`job ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const schedules: Array<[JobName, string]> = [
    ['backup', config.backupCron],
    ['idle-check', config.idleCheckCron],
    ['housekeeping', config.housekeepingCron],
  ];
  const tasks = schedules
    .filter(([, expression]) => expression !== 'off')
    .map(([name, expression]) => {
      if (!cron.validate(expression)) throw new Error(`bad cron expression for job ${name}: '${expression}'`);
      return cron.schedule(expression, () => void run(name), { name, noOverlap: true });
    });
  return {
    stop: () => tasks.forEach((t) => void t.stop()),
    run,
  };
}
