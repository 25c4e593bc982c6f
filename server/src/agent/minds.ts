// Picks the mind and the embedder from the settings: the LLM when an endpoint is configured, the
// offline mind otherwise. The choice is logged and shown in /healthz and the UI.
import type { Config } from '../config';
import type { Logger } from '../town/logger';
import type { Embedder } from '../llm/types';
import type { Mind } from './mind';
import { OfflineMind } from './offlineMind';
import { OFFLINE_RUNTIME_SETTINGS, type RuntimeSettings } from './AgentRuntime';
import { loadOfflineEmbedder } from '../llm/OfflineEmbedder';

export interface Minds {
  mind: Mind;
  embedder: Embedder;
  runtimeSettings: Partial<RuntimeSettings>;
}

export async function buildMinds(config: Config, logger: Logger): Promise<Minds> {
  const embedder = loadOfflineEmbedder();
  if (!config.llm.baseURL) {
    logger.info('no OPENAI_BASE_URL: running on the offline mind');
    return { mind: new OfflineMind(), embedder, runtimeSettings: OFFLINE_RUNTIME_SETTINGS };
  }
  throw new Error('the LLM mind is not wired yet');
}
