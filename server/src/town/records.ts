// The runtime's records, kept in the world's SQLite file.
import type { RuntimeRecords } from '../agent/context';
import type { WorldDb } from '../store/WorldDb';

export function recordsFor(db: WorldDb): RuntimeRecords {
  return {
    savePlan: (agentId, plan) => db.savePlan(agentId, plan),
    saveConversation: (record) => db.saveConversation(record),
    touchRelationship: (agentId, otherId, summary, gameMs) => db.touchRelationship(agentId, otherId, summary, gameMs),
    lastReflectedMemoryId: (agentId) => db.lastThoughtId(agentId),
  };
}
