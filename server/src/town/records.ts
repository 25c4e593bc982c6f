// The runtime's records, kept in the world's SQLite file.
import type { RuntimeRecords } from '../agent/context';
import type { WorldDb } from '../store/WorldDb';

export function recordsFor(db: WorldDb): RuntimeRecords {
  return {
    savePlan: (agentId, plan) => db.savePlan(agentId, plan),
    saveConversation: (record) => db.saveConversation(record),
    reviseRelationship: (agentId, otherId, summary, gameMs) => db.reviseRelationship(agentId, otherId, summary, gameMs),
    relationshipsOf: (agentId) => db.relationshipsOf(agentId),
    lastReflectedMemoryId: (agentId) => db.lastReflectionId(agentId),
    statusOf: (agentId) => db.statusOf(agentId),
    statuses: () => db.statuses(),
  };
}
