-- The chat beside each match (see src/chat.rs), in the order said.
CREATE TABLE chat (
    match_id TEXT NOT NULL,
    room TEXT NOT NULL,
    author TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX chat_match ON chat (match_id);
