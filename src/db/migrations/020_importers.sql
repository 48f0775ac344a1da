-- Importers: id allocation for sources without LegiScan ids, content hashes that make re-imports
-- no-ops, and unique indexes on external ids so upserts are idempotent.

CREATE SEQUENCE IF NOT EXISTS import_ids START 100000000;

-- Hash of the normalised record as last imported; equal hash means nothing to write.
ALTER TABLE people ADD COLUMN IF NOT EXISTS import_hash text NOT NULL DEFAULT '';
ALTER TABLE roll_calls ADD COLUMN IF NOT EXISTS import_hash text NOT NULL DEFAULT '';
ALTER TABLE committees ADD COLUMN IF NOT EXISTS import_hash text NOT NULL DEFAULT '';

-- Identity joins look people up by each external id in turn.
CREATE INDEX IF NOT EXISTS people_votesmart ON people (votesmart_id) WHERE votesmart_id <> '';
CREATE INDEX IF NOT EXISTS people_opensecrets ON people (opensecrets_id) WHERE opensecrets_id <> '';
CREATE INDEX IF NOT EXISTS people_ftm ON people (followthemoney_eid) WHERE followthemoney_eid <> '';
CREATE INDEX IF NOT EXISTS people_ballotpedia ON people (ballotpedia) WHERE ballotpedia <> '';

CREATE UNIQUE INDEX IF NOT EXISTS committees_ext_openstates ON committees ((external_ids->>'openstates')) WHERE external_ids ? 'openstates';
CREATE UNIQUE INDEX IF NOT EXISTS committees_ext_thomas ON committees ((external_ids->>'thomas_id')) WHERE external_ids ? 'thomas_id';
CREATE UNIQUE INDEX IF NOT EXISTS bills_ext_congress ON bills ((external_ids->>'congress_bill_id')) WHERE external_ids ? 'congress_bill_id';
CREATE UNIQUE INDEX IF NOT EXISTS roll_calls_ext_congress ON roll_calls ((external_ids->>'congress_vote_id')) WHERE external_ids ? 'congress_vote_id';
CREATE UNIQUE INDEX IF NOT EXISTS sessions_ext_congress ON sessions (source, session_tag) WHERE source = 'congress';
