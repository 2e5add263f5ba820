-- A host's matches (docs/hosting.md): the players' names (as a record's
-- `seats`), whether a host runs the match, whether the host set the seed
-- (the players are told, as of the secrets a host fixes), and who made each
-- entry when
-- not the seat itself (`host`: entered for the seat; `umpire`: the
-- umpire's ruling about it; NULL: the seat, or its clock).
ALTER TABLE matches
    ADD COLUMN players JSONB,
    ADD COLUMN hosted BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN seed_set BOOLEAN NOT NULL DEFAULT false,
    -- Whether the audience may watch while the match is played.
    ADD COLUMN audience BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE actions ADD COLUMN actor TEXT;
