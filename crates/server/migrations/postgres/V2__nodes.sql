-- Several nodes sharing this database (`umpire serve --bus`). Each running
-- process is a node: a row renewed every half second while it lives.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    alive_until TIMESTAMPTZ NOT NULL,
    live INTEGER NOT NULL DEFAULT 0,
    max_live INTEGER NOT NULL
);

-- The node running each match, and its epoch: a node that takes a match
-- over moves the epoch on, and every write of the match must carry the
-- epoch in force, so a node that lost a match can never write to it.
ALTER TABLE matches
    ADD COLUMN owner TEXT,
    ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN creator TEXT;
CREATE INDEX matches_live ON matches (owner) WHERE finished = 0;
CREATE INDEX matches_creator ON matches (creator) WHERE finished = 0;

-- The epoch each entry was written in.
ALTER TABLE actions ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;

-- Per-address rate limits the nodes share: a token bucket per address and
-- kind of request.
CREATE TABLE buckets (
    address TEXT NOT NULL,
    kind TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (address, kind)
);
