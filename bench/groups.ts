// The bench groups: what `npm run bench` runs, the keys each may write, the code each measures.
//
// How a group declares itself (one entry of GROUPS):
// - `name`: what `npm run bench -- <name>` selects; the group's section in bench/results.json and BENCHMARKS.md.
// - `keys`: every key the group may write, as patterns of dot-separated segments where `*` stands for one
//   segment (letters, digits, `_`, `-`). A run that returns a key matching none of them fails; one that leaves
//   out a key with no `*` is reported. tests/unit/benchResults.test.ts fails on a key in results.json that its
//   group does not declare. Where two groups' patterns could match one key, the group's own section decides.
// - `paths`: the files and folders whose code the figures depend on (the bench's own files included). A group
//   whose recorded commit is older than the last commit touching one of them is stale.
// - `settings(quick)`: what shapes the figures (sizes, seeds, clock rate, samples), recorded in the provenance and
//   handed to `run`. `quick` (`npm run bench -- --quick`) is a smaller setting for a shared or slow machine (one
//   run, fewer samples only where the key already says max); a quick run says so in its provenance. Groups that
//   read their settings from the environment list those variables in `env` instead: their values at the run
//   (unset ones included) are recorded.
// - `runs`: how many times `npm run bench` runs the group by default (`--runs N` overrides); each key is
//   recorded as the median with the min and max over the runs.
// - `run(settings)`: one run, returning the keys' values. Import the bench module lazily, so that reading this
//   list (as the consistency test does) loads no bench.
// - `reproduce`, `method`: one line each in BENCHMARKS.md (the command; what is measured, on what data, and what
//   it does not cover).
//
// To add a group: write its bench (a function returning `Record<string, number>`), add an entry here, run
// `npm run bench -- <name>`, and commit bench/results.json and BENCHMARKS.md with it. Targets go in
// bench/targets.json. To rename a key, change the bench and its pattern here: `npm run bench` and
// `npm run bench:table` drop figures whose keys no group declares any more, so an old name cannot linger.

export type Settings = Record<string, string | number | boolean | null>;

export interface BenchGroup {
  name: string;
  keys: readonly string[];
  paths: readonly string[];
  settings?: (quick: boolean) => Settings;
  env?: readonly string[];
  runs: number;
  run: (settings: Settings) => Promise<Record<string, number>>;
  reproduce: string;
  /** Joined into one paragraph: what is measured, on what data, and what it does not cover. */
  method: readonly string[];
}

/** Keeps the keys that match `prefix` (for benches whose functions also return figures another group owns). */
function only(prefix: RegExp, r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => prefix.test(k)));
}

/** The server code nearly every served or cognitive figure depends on. */
const SERVER = ['server/src', 'maps/town.tmj', 'personas', 'package-lock.json', 'scripts/buildServer.ts'];

/** The names a cognition day writes under its prefix (bench/cognition.ts `benchLlmDay`). */
const DAY_FIGURES = [
  'calls_per_agent_day',
  'tokens_per_agent_day',
  'wall_s',
  'bound_s',
  'efficiency',
  'peak_in_flight',
  'mean_in_flight',
  'conversations',
  'latency_p50_ms',
  'latency_p99_ms',
  'completion_tokens_per_call',
  'stub_queued_share',
  'stub_most_running',
];
const dayKeys = (prefix: string): string[] => [
  ...DAY_FIGURES.map((f) => `${prefix}.${f}`),
  `${prefix}.calls_per_agent_day.*`,
  `${prefix}.tokens_per_agent_day.*`,
  ...DAY_FIGURES.map((f) => `${prefix}.${f}.realistic`),
  `${prefix}.calls_per_agent_day.*.realistic`,
  `${prefix}.tokens_per_agent_day.*.realistic`,
];

export const GROUPS: readonly BenchGroup[] = [
  {
    name: 'sim',
    keys: [
      'path.p50_ms',
      'path.p99_ms',
      'path.length_tiles',
      ...[25, 250, 1000].flatMap((n) => [`sim.core_step_p50_ms.agents_${n}`, `sim.core_step_p99_ms.agents_${n}`, `net.bytes_per_s.agents_${n}`]),
      'sim.core_step_cpu_p99_ms.agents_1000',
      'sim.core_step_p50_ms.generated_1000',
      'sim.core_step_max_ms.generated_1000',
      'sim.core_step_cpu_max_ms.generated_1000',
    ],
    paths: [
      'server/src/sim',
      'server/src/world',
      'server/src/protocol',
      'server/src/rooms/stateSync.ts',
      // The generated town's hour runs the whole offline town (Town, the offline mind, the store).
      'server/src/town',
      'server/src/agent',
      'server/src/store',
      'server/src/llm',
      'server/src/config.ts',
      'maps',
      'personas',
      'package-lock.json',
      'bench/sim.ts',
      'bench/bigTown.ts',
      'bench/fixtures.ts',
    ],
    settings: (quick) => ({
      seed: 1,
      walkerPlanSeed: 7,
      tickHz: 10,
      clockRate: 60,
      walkerCounts: '25,250,1000',
      stepsPerTown: 1000,
      pathSearches: 1020,
      generatedAgents: 1000,
      generatedGameMinutes: quick ? 30 : 60,
      generatedSeed: 1,
    }),
    runs: 3,
    run: async (s) => (await import('./sim')).benchSim(s),
    reproduce: '`npm run bench -- sim`',
    method: [
      'The sim core alone (`Simulation.step`), no server: N walkers cloned from the shipped personas, each sent across town every 5 game minutes, ',
      'minds that answer at once with nothing; each step times the step only, then encodes the spectator patch (`net.bytes_per_s`, one patch a ',
      'tick). p99 over 1,000 steps after 100 warm-up steps. `path.*`: A* between the two arenas farthest apart, over 1,000 searches after 20. ',
      '`generated_1000`: the generated town of 1,000 from 6:30 to 7:30 in lockstep (600 steps of 6 game s), the offline mind thinking between ',
      'steps; only steps timed, so its slowest step is reported as max, not p99. Not covered: the served tick (sync, log writes, GC from ',
      'cognition), which `tenk` measures at 10,000 (`server.tick_*_ms.agents_10000`).',
    ],
  },
  {
    name: 'memory',
    keys: [
      'embedder.load_ms',
      'embedder.texts_per_s',
      ...['n1k_d100', 'n10k_d100'].flatMap((n) => [`memory.retrieve_p50_ms.${n}`, `memory.retrieve_p99_ms.${n}`]),
      'memory.retrieve_p50_ms.n100k_d1536',
      'memory.retrieve_max_ms.*',
      ...['n1k_d100', 'n10k_d100', 'n100k_d1536'].flatMap((n) => [
        `memory.retrieve_cpu_p50_ms.${n}`,
        `memory.first_retrieve_ms.${n}`,
        `memory.exact_reads_per_retrieval.${n}`,
        `memory.full_scans.${n}`,
      ]),
      'memory.insert_per_s',
      'memory.insert_per_s.cached',
      'memory.bytes_per_memory',
      'memory.cache_bytes_per_memory',
      'memory.insert_per_s.d1536',
      'memory.insert_per_s.cached.d1536',
      'memory.bytes_per_memory.d1536',
      'memory.cache_bytes_per_memory.d1536',
      'memory.retrieve_cpu_p50_ms.n1400_d100.cached',
      'memory.retrieve_cpu_p50_ms.n1400_d100.reload',
      'memory.retrieve_cpu_p50_ms.n1400_d100.sql',
    ],
    paths: [
      'server/src/store',
      'server/src/llm/OfflineEmbedder.ts',
      'server/src/sim/rng.ts',
      'server/assets/wordvectors',
      'package-lock.json',
      'bench/memory.ts',
      'bench/sim.ts',
    ],
    settings: (quick) => ({
      seedBase: 'perAgent + d',
      queriesSmall: 1005,
      queriesD1536: quick ? 25 : 105,
      sizes: 'n1k_d100,n10k_d100,n100k_d1536',
      clusters: 12,
      k: 10,
      weights: 'recency 0.5, importance 2, relevance 3',
      embedderTexts: 2000,
      cacheMissQueries: 40,
    }),
    runs: 3,
    run: async (s) => (await import('./memory')).benchMemory(s),
    reproduce: '`npm run bench -- memory`',
    method: [
      "The memory stream's exact retrieval (k = 10, the public code's weights) for one agent of three sharing a table: 1k and 10k memories at d = ",
      '100 (p99 over 1,000 queries after 5), 100k at d = 1536 (100 queries after 5: max, not p99). Vectors are 12 synthetic clusters with noise, ',
      "and the queries come from the same centres: not real text. `n1400_d100.*`: a week of one agent's memories answered from its cached columns, ",
      "reloaded into the cache first, or through SQL. `embedder.*`: the offline word-vector embedder. Not covered: retrieval on a real run's ",
      'memories and queries.',
    ],
  },
  {
    name: 'interview',
    keys: [
      'interview.seeds.count',
      'interview.seeds.pass_rate',
      'interview.seeds.pass_rate_min',
      'interview.seeds.control_pass_rate.*',
      'interview.seeds.control_pass_rate_max.*',
    ],
    paths: [...SERVER, 'bench/cognition.ts'],
    settings: () => ({ seeds: process.env.INTERVIEW_BENCH_SEEDS ?? '1..10' }),
    runs: 1,
    run: async (s) => {
      const { parseSeeds } = await import('../scripts/simulate');
      return (await import('./cognition')).benchInterviewSeeds(parseSeeds(String(s.seeds)));
    },
    reproduce: '`npm run bench -- interview` (`INTERVIEW_BENCH_SEEDS=1..3` for fewer)',
    method: [
      'The shipped town on the offline mind, one world per seed (1..10), from 13 Feb 06:00 through the next noon in lockstep; every resident ',
      "asked the five categories' questions and graded against its own records (`analysis/believability.ts`), and the same grader on each ",
      "control, seeded by the seed: `other-agent` (graded on another resident's records), `shuffled` (records moved between residents), ",
      '`generic` (a sentence anybody could say), `negation` (the answer negated), `contradiction` (a home, workplace or kin of another added), ',
      "`word-salad` (the answer's own content words shuffled). Mean over seeds and the worst seed (`_max`, `_min`). Every control should pass ",
      "at most 5%. The offline answers are built from the records they are graded on: their pass rate checks the offline mind's consistency, ",
      'not its believability.',
    ],
  },
  {
    name: 'cognition',
    keys: [
      'offline.game_days_per_s.agents_25',
      'offline_day.own_actions_min_per_agent',
      'offline_day.statuses_changed',
      'offline_day.agents',
      'offline_day.conversations.*',
      'offline_day.invitation_replans',
      'offline_day.planning_thoughts',
      'offline_day.lines',
      'offline_day.distinct_line_share',
      'interview.pass_rate',
      'interview.pass_rate.*',
      'interview.control_pass_rate',
      'interview.control_pass_rate.*',
      ...dayKeys('cognition'),
      ...dayKeys('cognition.whole'),
    ],
    paths: [...SERVER, 'tests/fakes', 'bench/cognition.ts'],
    runs: 1,
    run: async () => (await import('./cognition')).benchCognition(),
    reproduce: '`npm run bench -- cognition`',
    method: [
      'The shipped 25-agent town for a game day: on the offline mind (speed, an offline day read back, the interview benchmark with its controls), ',
      'then on the LLM path against the in-process OpenAI-compatible stub: turn-by-turn and whole conversations, each with a fixed 1 s latency and ',
      "as a batching server (`.realistic`). Calls and tokens per agent-day; efficiency is the stub's full-batch bound over wall time. Not covered: ",
      "a real model's replies.",
    ],
  },
  {
    name: 'llm',
    keys: [
      ...dayKeys('llm.faulty_20'),
      ...dayKeys('llm.faulty_20_clean_repairs'),
      'llm.fallback_share.*',
      'llm.requests_per_ask.*',
      'llm.repairs_per_agent_day.*',
      'llm.decomposed_share.*',
      'llm.semantic_mends_per_agent_day',
    ],
    paths: [...SERVER, 'tests/fakes', 'bench/cognition.ts'],
    runs: 1,
    run: async () => {
      const { benchLlmDay } = await import('./cognition');
      return { ...(await benchLlmDay('turns', 'llm.faulty_20', 0.2)), ...(await benchLlmDay('turns', 'llm.faulty_20_clean_repairs', 0.2, 'fixed', false)) };
    },
    reproduce: '`npm run bench -- llm`',
    method: [
      "The shipped town's LLM day against the stub with 20 % of replies faulty: `faulty_20` with repair replies and the start-up probe as ",
      'faulty as first replies (a model that keeps making mistakes), `faulty_20_clean_repairs` with repairs never faulty. Fallback share and ',
      'requests per ask are of asks; `decomposed_share` is the share of day plans whose actions were asked for; semantic mends are replies used ',
      'without the places, people or evidence that are not in town.',
    ],
  },
  {
    name: 'endpoints',
    keys: [
      'llm.game_days_per_hour.*',
      'llm.stretch_wall_s.*',
      'llm.stretch_game_hours.*',
      'llm.stretch_calls.*',
      'llm.stretch_calls_per_s.*',
      'llm.stretch_calls_max_over_min.*',
      'llm.stretch_stub_busy_share.*',
      'llm.stretch_work_per_agent_ratio.*',
      'llm.day_work_s.*',
      'llm.open_s.*',
    ],
    paths: [...SERVER, 'tests/fakes', 'bench/cognition.ts', 'bench/bigTown.ts'],
    runs: 1,
    run: async () => only(/^llm\./, await (await import('./cognition')).benchEndpoints()),
    reproduce: '`npm run bench -- endpoints`',
    method: [
      "The generated town of 1,000 on four batching stub endpoints against one, extrapolated to game days an hour from the 25-agent realistic day's ",
      'work curve.',
    ],
  },
  {
    name: 'replay',
    keys: ['replay.world_bytes_per_agent_day', 'replay.seek_p50_ms', 'replay.seek_p99_ms', 'replay.snapshots_bytes_per_agent_day', 'replay.play_cpu_pct'],
    paths: [...SERVER, 'bench/replay.ts'],
    runs: 1,
    run: async () => (await import('./replay')).benchReplay(),
    reproduce: '`npm run bench -- replay`',
    method: ['A recorded offline run: seeks to random game times, one viewer playing at 600×, and the world file per agent-day.'],
  },
  {
    name: 'analysis',
    keys: ['simulate.game_days_per_s.agents_25', 'analysis.report_ms', 'export.events_per_s', 'export.events', 'export.bytes_per_event'],
    paths: [...SERVER, 'scripts/simulate.ts', 'scripts/export.ts', 'bench/analysis.ts'],
    runs: 1,
    run: async () => (await import('./analysis')).benchAnalysis(),
    reproduce: '`npm run bench -- analysis`',
    method: ['A headless offline day of the shipped town (`npm run simulate`), its analysis report and its export.'],
  },
  {
    name: 'social',
    keys: [
      'social.party_aware_mean',
      'social.party_aware_sd',
      'social.party_aware_before_mean',
      'social.candidacy_aware_mean',
      'social.attended_share_of_invited',
      'social.general.event_aware_mean',
      'social.general.event_aware_sd',
      'social.general.event_to_party_min_ratio',
      'social.general.invited_mean',
      'social.general.secret_to_event_ratio',
      'social.general.*.event_aware_mean',
      'social.general.*.secret_aware_mean',
      'social.general.*.invited_mean',
    ],
    env: ['SOCIAL_BENCH_SEEDS'],
    paths: [...SERVER, 'scenarios', 'bench/social.ts'],
    runs: 1,
    run: async () => (await import('./social')).benchSocial(),
    reproduce: '`npm run bench -- social`',
    method: [
      "The Valentine's Day scenario on the offline mind over several seeds: who heard of the party, and who came. `social.general.*`: the five ",
      'scenarios of scenarios/general (a club, a dinner, a sale, a protest, a wedding; open and invite-only; secrets in five phrasings) over ',
      "the same seeds: awareness of each event before it began (as the party's in `social.party_aware_before_mean`), the least scenario's ",
      "over the party's (`event_to_party_min_ratio`), awareness of its secret at the end, and invitees.",
    ],
  },
  {
    name: 'ville',
    keys: [
      'social.ville.density_start_mean',
      'social.ville.density_end_mean',
      'social.ville.density_growth_mean',
      'social.ville.density_growth_sd',
      'social.ville.party_aware_mean',
      'social.ville.party_aware_sd',
      'social.ville.invited_mean',
      'social.ville.present_mean',
      'social.ville.conversations_mean',
    ],
    env: ['SMALLVILLE_CHECKOUT', 'VILLE_BENCH_SEEDS'],
    paths: [...SERVER, 'scripts/importSmallville.ts', 'scripts/smallville', 'scenarios/ville.yaml', 'bench/ville.ts'],
    runs: 1,
    run: async () => (await import('./ville')).benchVille(),
    reproduce: '`SMALLVILLE_CHECKOUT=<checkout of joonspk-research/generative_agents> npm run bench -- ville`',
    method: [
      "The paper's Valentine's scenario on the reference's own town and 25 residents (scenarios/ville.yaml), imported afresh from the ",
      'checkout, on the offline mind over seeds 1..10: network density (pairs who know each other from their files or exchanged a line) at ',
      "the start and after two days and its growth (the paper: 0.167 → 0.74, by interview), the party's spread, whom Isabella invited, who ",
      'came, and the conversations. Meeting strangers comes from going out in free time (server/src/agent/outings.ts), whose parameters ',
      'were calibrated on this scenario (server/src/agent/README.md, "Meeting new people").',
    ],
  },
  {
    name: 'server',
    keys: ['server.*.agents_1000', 'server.rss_mb.agents_10', 'server.agents.agents_1000'],
    paths: [...SERVER, 'bench/server.ts', 'bench/bigTown.ts'],
    runs: 1,
    run: async () => (await import('./server')).benchServer(),
    reproduce: '`npm run bench -- server`',
    method: [
      "The generated town of 1,000 served by `npm start`'s compiled server in its own process: start-up, RSS, CPU, the speed the clock keeps, ",
      '`/healthz` latency.',
    ],
  },
  {
    name: 'client',
    keys: [
      'client.*.agents_1000',
      'client.fps.agents_1000_inspector_open',
      'client.fps.agents_1000_drag',
      'client.fps.crowd_1000',
      'client.frame_p99_ms.crowd_1000',
      'client.webgl',
    ],
    paths: [...SERVER, 'client', 'bench/client.ts', 'bench/bigTown.ts'],
    runs: 1,
    run: async () => (await import('./client')).benchClient(),
    reproduce: '`npm run bench -- client`',
    method: [
      'The page in headless Chromium on the served town of 1,000: frame rate and frame p99. `client.fps.agents_1000` is at whole-town zoom, where ',
      'agents are dots; `client.fps_sprites` draws sprites. `client.webgl` 0: software rendering.',
    ],
  },
  {
    name: 'load',
    keys: ['load.*.spectators_*', 'load.rss_mb.start'],
    paths: [...SERVER, 'bench/load.ts'],
    runs: 1,
    run: async () => (await import('./load')).benchLoad(),
    reproduce: '`npm run bench -- load`',
    method: ["1 and 200 spectators (`@colyseus/sdk` clients) on a 25-agent town in its own server process; the server's CPU and RSS from /proc."],
  },
  {
    name: 'chaos',
    keys: [
      ...['offline', 'llm'].flatMap((mind) =>
        ['kills', 'lost_rows', 'failed_checks', 'seen_rows', 'resume_p50_ms', 'resume_max_ms', 'open_max_ms'].map((f) => `chaos.${f}.${mind}`),
      ),
      'chaos.kills',
      'chaos.lost_rows',
      'chaos.resume_p50_ms',
      'chaos.resume_max_ms',
      'chaos.open_max_ms',
      'chaos.started_max_ms',
      'chaos.disk_full_recovered',
      'chaos.disk_full_seeds',
      'chaos.disk_full_resume_max_ms',
      'chaos.rooms_per_anonymous_client.*',
      'chaos.gc_soak.*',
    ],
    env: ['BENCH_GC_SOAK_MINUTES'],
    paths: [...SERVER, 'tests/chaos', 'bench/chaos.ts', 'bench/hardening.ts', 'bench/nodeSoak.ts', 'bench/forceGc.mjs'],
    runs: 1,
    run: async () => (await import('./chaos')).benchChaos(),
    reproduce: '`npm run bench -- chaos`',
    method: [
      'The compiled server killed (SIGKILL) 20 times on each mind, then restarted: rows lost, time to resume. `chaos.resume_*` runs from spawn to ',
      'HTTP accepting, not to the town running (`chaos.started_*`); 40 restarts (20 a mind), so the slowest is reported as max. Also a full ',
      'disk, anonymous clients, and a ',
      'forced-GC soak.',
    ],
  },
  {
    name: 'restart',
    keys: [
      'chaos.restarts',
      'chaos.resume_p99_ms',
      'chaos.restart.to_running_p50_ms',
      'chaos.restart.to_running_max_ms',
      'chaos.restart.to_serving_p99_ms',
      'chaos.restart.lost_rows',
    ],
    paths: [...SERVER, 'tests/chaos', 'bench/chaos.ts'],
    settings: (quick) => ({ restarts: quick ? 20 : 100 }),
    runs: 1,
    run: async (s) => (await import('./chaos')).benchRestarts(Number(s.restarts)),
    reproduce: '`npm run bench -- restart` (on a quiet machine)',
    method: [
      'The shipped town as `npm start` runs it, killed (SIGKILL) 0.3 to 1 s after each start ran, 100 times: `chaos.resume_p99_ms` from spawn ',
      'to the town running (/healthz polled every 20 ms), `to_serving` to HTTP accepting; `lost_rows` must be 0.',
    ],
  },
  {
    name: 'outage',
    keys: ['llm_outage.*', 'llm_outage.*.*'],
    paths: [...SERVER, 'tests/chaos', 'tests/fakes', 'bench/chaos.ts'],
    runs: 1,
    run: async () => (await import('./chaos')).benchOutage(),
    reproduce: '`npm run bench -- outage`',
    method: ['A 25-agent town on the stub while it turns faulty, disappears and returns: the longest clock stall, fallbacks made and logged, recovery.'],
  },
  {
    name: 'soak',
    keys: [
      'soak.world_kb_per_agent_day',
      'soak.world_kb_per_agent_day_at_*',
      'soak.world_kb_per_agent_day_soaked',
      'soak.world_kb_growth_per_agent_day',
      'soak.world_kb_start_per_agent',
      'soak.world_other_kb_per_agent_day',
      'soak.world_bytes_per_memory',
      'soak.file_slope_kb_per_agent_day',
      'soak.snapshot_window_kb_per_agent',
      'soak.vector_chunk_growth_kb_per_agent',
      'soak.memories_per_agent_day',
      'soak.cpu_pct_max.agents_*',
      'soak.cpu_pct_mean.agents_*',
      'soak.rss_slope_pct_per_day',
      'soak.rss_slope_pct_per_day_hourly',
      'soak.rss_slope_pct_per_day_with_day_shape',
      'soak.rss_slope_from_hour',
      'soak.rss_day_over_day_pct',
      'soak.rss_mb_max',
      'soak.rss_mb_growth',
      'soak.rss_mb_mean_settled',
      'soak.heap_slope_mb_per_day',
      'soak.heap_mb_max',
      'soak.array_buffers_mb_max',
      'soak.cache_bytes_per_memory',
      'soak.cache_mb_slope_per_day',
      'soak.cache_vectors_per_memory',
      'soak.wall_s',
      'soak.game_hours',
      'soak.table_kb_per_agent.*',
      'soak.table_bytes_per_memory.*',
    ],
    env: ['SOAK_GAME_HOURS', 'SOAK_CLOCK_RATE', 'SOAK_WALL_MINUTES', 'MEMORY_CACHE_MB'],
    paths: [...SERVER, 'bench/soak.ts', 'bench/bigTown.ts'],
    runs: 1,
    run: async () => (await import('./soak')).benchSoak(),
    reproduce: '`npm run bench -- soak` (a game day at 1×; `SOAK_GAME_HOURS=168` for a week)',
    method: [
      'The generated town of 1,000 served from midnight by the compiled server in its own process, sampled every game hour: the world file per ',
      "agent-day, CPU at 1×, RSS's trend (definition and window in bench/soak.ts's header). Writes docs/soak.svg. The clock rate and game hours of ",
      'the run are in the provenance (`SOAK_CLOCK_RATE`, `SOAK_GAME_HOURS`); faster soaks understate writes.',
    ],
  },
  {
    name: 'tenk',
    keys: [
      // TENK_AGENTS other than 10,000 is for exploring with `npx tsx bench/tenK.ts`: its keys are not declared here.
      'tenk.loadavg_1m.agents_10000',
      ...[
        'gc_minor',
        'gc_major',
        'gc_pause_p90_ms',
        'gc_pause_max_ms',
        'gc_pause_total_ms',
        'steps',
        'budget_waits_per_step',
        'budget_wait_max_game_s',
        'walked',
        'schedules_run_per_step',
        'path_tiles_searched_per_step',
        'path_tiles_searched_ahead_per_step',
        'paths_ahead_taken_per_step',
        'path_searches_per_step',
        'path_fields_dropped',
        'town_open_ms',
        'served_wall_ms',
        'speed',
        'held_for_minds_ms',
        'cpu_pct',
      ].map((f) => `sim.${f}.agents_10000`),
      ...[
        'bytes_per_s',
        'message_bytes_per_s',
        'lines_per_s',
        'feed_items_per_s',
        'spectator_bytes_per_s',
        'patch_p99_bytes',
        'patch_max_bytes',
        'patch_encode_p99_ms',
        'patch_encode_max_ms',
        'first_state_bytes',
      ].map((f) => `net.${f}.agents_10000`),
      // The served tick (server.tick_*) and the compiled server (bench/server.ts's figures).
      'server.*.agents_10000',
      'client.*.agents_10000',
    ],
    env: ['TENK_AGENTS', 'TENK_PART', 'TENK_SEEDED', 'TENK_SIM_GAME_MINUTES', 'TENK_SIM_WALL_MINUTES'],
    paths: [...SERVER, 'client', 'bench/tenK.ts', 'bench/servedTown.ts', 'bench/server.ts', 'bench/client.ts', 'bench/bigTown.ts', 'bench/sim.ts'],
    runs: 1,
    run: async () => (await import('./tenK')).benchTenK(),
    reproduce: '`npm run bench -- tenk` (`TENK_PART=server|sim|client` for one part)',
    method: [
      'The generated town of 10,000: served by the compiled server (start-up, RSS, speed, CPU), its served morning in process (bench/servedTown.ts: ',
      "the room's whole tick at 10 Hz: step, state sync and log writes, `server.tick_*_ms.agents_10000`), and the page on it. The default ",
      'hour from 6:30 has about 600 ticks, so the tick, its gaps and the patches report max, not p99; `TENK_SIM_GAME_MINUTES=100` gives over ',
      '1,000 ticks and a p99.',
    ],
  },
  {
    name: 'recall',
    keys: [
      'embedder.real.load_ms',
      'embedder.real.texts_per_s',
      'memory.recall_at_5.real',
      'memory.recall_at_5.word_vectors',
      'memory.recall_at_5.real_shuffled_control',
      'memory.retrieve_p50_ms.n10k_d384',
      'memory.retrieve_p99_ms.n10k_d384',
    ],
    paths: [
      'server/src/llm/embedded.ts',
      'server/src/llm/OfflineEmbedder.ts',
      'server/src/store',
      'scripts/models',
      'tests/fixtures/paraphrases.ts',
      'personas',
      'package-lock.json',
      'bench/realModels.ts',
      'bench/memory.ts',
    ],
    settings: (quick) => ({ embedder: 'all-MiniLM-L6-v2 (GGUF, F32)', k: 5, embedderTexts: quick ? 100 : 500, queries: 1005 }),
    runs: 1,
    run: async (s) => (await import('./realModels')).benchRecall(s),
    reproduce: '`npm run models:fetch && npm run bench -- recall`',
    method: [
      'The sentence embedder (all-MiniLM-L6-v2 converted to GGUF, run by node-llama-cpp) against the shipped word vectors: 36 memories, each ',
      'asked for by a question that shares none of its content words, among 157 sentences of the shipped personas as distractors (recall@5), and ',
      'the same with the answers shuffled (a control that must fail). Speed: texts a second embedded one by one; exact retrieval at 10k memories of ',
      "its 384 dimensions (synthetic vectors, as the memory group's). Not covered: a real run's memories as the pool.",
    ],
  },
  {
    name: 'llmreal',
    keys: [
      'llm.real.*.*.valid_share',
      'llm.real.*.*.repaired_share',
      'llm.real.*.*.mended_share',
      'llm.real.*.*.fallback_share',
      'llm.real.*.*.requests_per_ask',
      'llm.real.*.*.tokens_per_ask',
      'llm.real.*.*.wall_s',
      'llm.real.*.valid_share',
      'llm.real.*.fallback_share',
      'llm.real.*.fallback_share.*',
      'llm.real.tokens_per_s.*',
      'llm.real.prompt_tokens_per_s.*',
    ],
    paths: ['server/src/llm', 'server/src/agent', 'scripts/llmCheck.ts', 'scripts/modelServe.ts', 'scripts/models', 'package-lock.json', 'bench/realModels.ts'],
    settings: (quick) => ({
      models: 'smollm2,gemma3',
      // Quick: the headline variant of each model (a free variant runs each reply to its budget: a quarter of an hour a model).
      variants: quick ? 'embedded' : 'embedded,embedded_free,http,http_free',
      repeat: 1,
      sequences: 1,
      threads: 'cores - 1',
    }),
    runs: 1,
    run: async (s) => (await import('./realModels')).benchLlmReal(s),
    reproduce: '`npm run models:fetch && npm run bench -- llmreal`',
    method: [
      'llm:check on each test model (SmolLM2-135M-Instruct Q4_1; Gemma 3 270M Q4_K_M, the base model, not instruction-tuned): every purpose ',
      "with the app's real prompts, through the mind's repair and mend path, in four variants: in this process with the schema's grammar ",
      '(`embedded`, the headline `llm.real.<model>.*`) and without (`embedded_free`), and over HTTP through `model:serve` with json_schema ',
      'honoured (`http`) and ignored (`http_free`). Shares are of asks. Tokens a second: three 120-token replies on one sequence. One pass over ',
      'the purposes (11 to 14 asks a variant: decompose asks for the actions of the blocks that came back): small samples. With the grammar ',
      'off neither test model writes JSON when the prompt asks for it (SmolLM2 answers in numbered prose, Gemma 3 runs on to its budget), so ',
      "every ask of the free variants falls back; over HTTP the endpoint gets the schema as declared, not the town's narrowed shape. ",
      'Not counted: the tokens of a reply that held no JSON (the error it raises carries no usage), so tokens_per_ask of a free variant is low.',
    ],
  },
  {
    name: 'realtown',
    keys: [
      'llm.real.town.agents',
      'llm.real.town.wall_s',
      'llm.real.town.game_hours',
      'llm.real.town.agents_planned',
      'llm.real.town.calls',
      'llm.real.town.wall_s_per_game_hour',
      'llm.real.game_days_per_hour.smollm2',
      'llm.real.town.calls_per_agent_hour',
      'llm.real.town.tokens_per_agent_hour',
      'llm.real.town.fallback_share',
      'cognition.efficiency.real_smollm2',
      'llm.real.served.patches_per_s.*',
      'llm.real.served.patch_gap_max_ms.*',
      'llm.real.served.model_busy_share.*',
      'llm.real.served.starting_s.*',
      'llm.real.served.fps.*',
      'llm.real.served.frame_p99_ms.*',
      'interview.real.pass_rate.smollm2',
      'interview.real.control_pass_rate.smollm2',
      'interview.real.pass_rate.smollm2.*',
      'interview.real.control_pass_rate.smollm2.*',
    ],
    paths: [...SERVER, 'bench/realModels.ts'],
    settings: (quick) => ({
      agents: 25,
      sequences: 2,
      wallMinutes: quick ? 5 : 15,
      start: '2026-02-13T06:00',
      servedWindowS: quick ? 30 : 60,
      interviewAgents: 5,
      interviewAfterGameHours: 2,
    }),
    runs: 1,
    run: async (s) => {
      const { benchTownReal, benchServedReal } = await import('./realModels');
      const { benchInterviewReal } = await import('./realModels');
      return { ...(await benchServedReal(s)), ...(await benchTownReal(s)), ...(await benchInterviewReal(s)) };
    },
    reproduce: '`npm run models:fetch && npm run bench -- realtown`',
    method: [
      'The shipped residents cloned to 25, on SmolLM2 in this process (2 sequences), in lockstep from 06:00 (game time moves only as the ',
      'minds allow; the first game minute waits for every morning plan), stopped where it has got to when the wall budget is spent: game ',
      'hours reached and the days a wall hour that makes, residents whose day plan the model wrote, calls, calls and tokens per agent-hour ',
      '(over the game time reached: a run that stays in its first morning minutes gives the cost of its planning over those minutes, not a ',
      "day's rate; -1 when no game time passed), the fallback share of asks, and the model's busy share (summed call latency over ",
      'sequences × wall time; calls, tokens and latency from the run only, not the seed memories rated as the town opened). ',
      '`llm.real.served.*`: the shipped town served as by `npm start` (clock policy `run`), from the moment it runs (`starting_s`: how long its ',
      "start held the clock, seeding memories), one spectator's patches a second and longest gap, ",
      "and the page's frames a second (headless Chromium, the whole town in view) and p99 frame, on the offline mind and on SmolLM2 while it ",
      "generates (`model_busy_share`: the share of half-second samples with an ask running). Not covered: the Valentine's scenario over two ",
      'game days on a real model (it does not fit in a session here). `interview.real.*`: five residents on SmolLM2 through two morning hours, ',
      "then each asked the five categories' questions and graded against its own records, with the offline grader's controls: the LLM mind's ",
      'believability.',
    ],
  },
];

const SEGMENT = '[A-Za-z0-9_-]+';

/** A key pattern as a regular expression: `*` is one segment. */
export function patternRegExp(pattern: string): RegExp {
  const body = pattern
    .split('.')
    .map((s) => (s === '*' ? SEGMENT : s.replace(/[-[\]{}()+?.,\\^$|#\s]/g, '\\$&').replace(/\*/g, SEGMENT)))
    .join('\\.');
  return new RegExp(`^${body}$`);
}

export function groupDeclares(group: BenchGroup, key: string): boolean {
  return group.keys.some((p) => patternRegExp(p).test(key));
}

/** The keys a run is expected to write: the patterns with no `*` (one left out is reported, not fatal). */
export function literalKeys(group: BenchGroup): string[] {
  return group.keys.filter((p) => !p.includes('*'));
}

export function findGroup(name: string): BenchGroup | undefined {
  return GROUPS.find((g) => g.name === name);
}
