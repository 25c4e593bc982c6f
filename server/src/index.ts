// `npm start`: the town on PORT (default 2567), with the settings from the environment.
import { loadConfigFromProcess, ConfigError } from './config';
import { startTownWith, type RunningTown } from './app';
import { createLogger } from './town/logger';
import { warmNlp } from './agent/nlp';
import module from 'node:module';

async function main(): Promise<void> {
  const config = loadConfigFromProcess();
  const logger = createLogger(config.logLevel);
  // The handlers go in before the start: a stop asked for while the town opens (or just as it says it
  // serves) waits for the start and then saves, instead of Node's default ending it unsaved.
  let starting: Promise<RunningTown> | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: saving the world and stopping`);
    starting!
      .then((running) => running.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error(`while stopping: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  starting = startTownWith(config, logger);
  const running = await starting;
  // Serving: now write the compile cache (start.ts turned it on; a kill -9 later keeps it for the restart).
  module.flushCompileCache?.();
  // What the offline mind's voice needs (compromise: about half a second of CPU) loads once the town has
  // run for a moment, off the restart's path: loaded as it began serving, it held up the first ticks and
  // answers of every restart. A town that needs it sooner loads it on first use.
  void running.town.whenStarted().then(() => {
    if (!stopping) setTimeout(() => stopping || warmNlp(), NLP_WARM_AFTER_MS).unref();
  });
}

/** How long after the town starts the offline mind's voice is loaded. */
const NLP_WARM_AFTER_MS = 2_000;

main().catch((error: unknown) => {
  // Map, persona and settings errors already name the file and field: print them plainly.
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  console.error(`Smalltown could not start:\n${message}`);
  process.exit(1);
});
