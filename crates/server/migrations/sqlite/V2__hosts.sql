-- A host's matches (docs/hosting.md): the players' names (JSON, as a
-- record's `seats`), whether a host runs the match, whether the host set
-- the seed (the players are told, as of the secrets a host fixes), and who
-- made each
-- entry when not the seat itself (`host`: entered for the seat; `umpire`:
-- the umpire's ruling about it; NULL: the seat, or its clock).
ALTER TABLE matches ADD COLUMN players TEXT;
ALTER TABLE matches ADD COLUMN hosted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN seed_set INTEGER NOT NULL DEFAULT 0;
-- Whether the audience may watch while the match is played (a host's choice).
ALTER TABLE matches ADD COLUMN audience INTEGER NOT NULL DEFAULT 1;
ALTER TABLE actions ADD COLUMN actor TEXT;
ALTER TABLE live_actions ADD COLUMN actor TEXT;
