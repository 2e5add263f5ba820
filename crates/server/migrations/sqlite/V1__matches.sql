-- A match as created, and once over its outcome (finished = 1) or why it was
-- called off (finished = 2, the reason in `outcome`). JSON is kept as text.
-- (IF NOT EXISTS: stores made before versioned migrations take this as it is.)
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    timed INTEGER NOT NULL,
    clock TEXT,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    takeover INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    finished_ms INTEGER,
    moves INTEGER NOT NULL DEFAULT 0,
    outcome TEXT
);
CREATE INDEX IF NOT EXISTS matches_finished ON matches (finished, finished_ms);

-- The accepted entries of matches no longer played, a match's together;
-- one entry per (match, index).
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    effect TEXT,
    PRIMARY KEY (match_id, idx)
) WITHOUT ROWID;

-- The entries of matches being played, in the order they came (see
-- src/store/sqlite/live_log.rs).
CREATE TABLE IF NOT EXISTS live_actions (
    match_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    effect TEXT
);
