// How a world keeps its event log's rows, in one of two layouts (memoryTexts.ts does the same for memories):
// - 'rows' (schema 4 on): `event_rows` (seq, game_ms, kind, agent, data) with the kind as a key into `event_kinds`
//   and the agent as a key into `agents` (the table memories use): the kind's name (~14 bytes) and the persona
//   id (~10) were repeated in every row, and the id again in the index by agent. `events` is a view with the
//   table's columns and values, and INSTEAD OF triggers take an INSERT, UPDATE or DELETE on it as the table did
//   (the log's append writes through it: a new kind or agent gets its key there).
// - 'table' (files made before schema 4, read as they are, read-only): the `events` table of schema 1.
// The view's kind is a subquery, not a join: a query by kind then reads the log in seq order as it did on the
// table (a join would start from the kind and scan the log once for each kind asked for).
import type Database from 'better-sqlite3';
import { EVENT_KINDS } from '../protocol/events';

export type EventLayout = 'rows' | 'table';

export function eventLayoutOf(db: Database.Database): EventLayout {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'event_rows'").get() ? 'rows' : 'table';
}

/** The keys of a written row's kind and agent, each added when new. */
const KEYS_OF_NEW = `
    INSERT INTO event_kinds (name) SELECT NEW.kind WHERE NOT EXISTS (SELECT 1 FROM event_kinds WHERE name = NEW.kind);
    INSERT INTO agents (id) SELECT NEW.agent_id WHERE NEW.agent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM agents WHERE id = NEW.agent_id);`;
const KIND_KEY = '(SELECT key FROM event_kinds WHERE name = NEW.kind)';
const AGENT_KEY = '(SELECT key FROM agents WHERE id = NEW.agent_id)';

const EVENTS_VIEW = `
  CREATE VIEW events AS
    SELECT e.seq AS seq, e.game_ms AS game_ms, (SELECT name FROM event_kinds WHERE key = e.kind) AS kind, a.id AS agent_id, e.data AS data
    FROM event_rows e LEFT JOIN agents a ON a.key = e.agent;
  CREATE TRIGGER events_insert INSTEAD OF INSERT ON events BEGIN ${KEYS_OF_NEW}
    INSERT INTO event_rows (seq, game_ms, kind, agent, data) VALUES (NEW.seq, NEW.game_ms, ${KIND_KEY}, ${AGENT_KEY}, NEW.data);
  END;
  CREATE TRIGGER events_update INSTEAD OF UPDATE ON events BEGIN ${KEYS_OF_NEW}
    UPDATE event_rows SET seq = NEW.seq, game_ms = NEW.game_ms, kind = ${KIND_KEY}, agent = ${AGENT_KEY}, data = NEW.data WHERE seq = OLD.seq;
  END;
  CREATE TRIGGER events_delete INSTEAD OF DELETE ON events BEGIN DELETE FROM event_rows WHERE seq = OLD.seq; END;
`;

/**
 * Schema 4's events on an existing file (after compactMemories, which makes `agents`): every event's row moved
 * into `event_rows` in seq order, its kind and agent keyed, and `events` made a view over them. The indexes are
 * the table's, on keys: by game time, and by agent then seq.
 */
export function compactEvents(db: Database.Database): void {
  db.exec(`
    CREATE TABLE event_kinds (key INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE event_rows (
      seq INTEGER PRIMARY KEY,
      game_ms INTEGER NOT NULL,
      kind INTEGER NOT NULL REFERENCES event_kinds (key),
      agent INTEGER REFERENCES agents (key),
      data TEXT NOT NULL
    );
  `);
  // Today's kinds first, in the protocol's order; then any other kind an older file logged.
  const addKind = db.prepare('INSERT OR IGNORE INTO event_kinds (name) VALUES (?)');
  for (const kind of EVENT_KINDS) addKind.run(kind);
  db.exec(`
    INSERT OR IGNORE INTO event_kinds (name) SELECT DISTINCT kind FROM events;
    INSERT OR IGNORE INTO agents (id) SELECT DISTINCT agent_id FROM events WHERE agent_id IS NOT NULL;
    INSERT INTO event_rows (seq, game_ms, kind, agent, data)
      SELECT e.seq, e.game_ms, k.key, a.key, e.data FROM events e JOIN event_kinds k ON k.name = e.kind LEFT JOIN agents a ON a.id = e.agent_id ORDER BY e.seq;
    DROP TABLE events;
    CREATE INDEX event_rows_game_ms ON event_rows (game_ms);
    CREATE INDEX event_rows_agent ON event_rows (agent, seq);
  `);
  db.exec(EVENTS_VIEW);
}
