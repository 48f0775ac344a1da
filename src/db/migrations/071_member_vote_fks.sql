-- Member votes are the largest table an import writes (a state session: hundreds of thousands of
-- rows; MS 2014 alone 234,000) and their two foreign keys cost more than the rows themselves: each
-- row ran a key-share lookup of its roll call and one of its person, about 0.8 s per key per 230,000
-- rows. Neither parent is ever deleted (bills, roll calls and people are only inserted and updated;
-- a rewritten roll call deletes its member rows itself), and only the importers, the seed and the
-- simulator write this table, always with ids they have just written or read. A future retention
-- job must delete member votes with their roll calls itself.
ALTER TABLE roll_call_votes DROP CONSTRAINT IF EXISTS roll_call_votes_roll_call_id_fkey;
ALTER TABLE roll_call_votes DROP CONSTRAINT IF EXISTS roll_call_votes_people_id_fkey;
