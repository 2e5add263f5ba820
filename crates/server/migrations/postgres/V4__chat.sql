-- The chat beside each match (see src/chat.rs), in the order said.
CREATE TABLE chat (
    id BIGSERIAL PRIMARY KEY,
    match_id TEXT NOT NULL REFERENCES matches (id),
    room TEXT NOT NULL,
    author TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    text TEXT NOT NULL,
    epoch BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX chat_match ON chat (match_id, id);
