-- A match as created; once over, its outcome (finished = 1), or why it was
-- called off (finished = 2). `moves` counts its accepted entries: a write
-- appends only at that index, so no index is written twice or skipped.
CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config JSONB NOT NULL,
    seed BIGINT NOT NULL,
    timed BOOLEAN NOT NULL,
    clock JSONB,
    seats JSONB NOT NULL,
    tokens JSONB NOT NULL,
    takeover BOOLEAN NOT NULL,
    created_ms BIGINT NOT NULL,
    finished SMALLINT NOT NULL DEFAULT 0,
    finished_ms BIGINT,
    moves INTEGER NOT NULL DEFAULT 0,
    outcome JSONB,
    called_off TEXT
);
CREATE INDEX matches_finished ON matches (finished, finished_ms);

-- Every accepted entry: one per (match, index).
CREATE TABLE actions (
    match_id TEXT NOT NULL REFERENCES matches (id),
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    effect TEXT,
    PRIMARY KEY (match_id, idx)
);
