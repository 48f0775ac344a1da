-- Names sort as people expect, not byte-wise ("Zuber" before "de la Cruz", "DeSaulnier" before
-- "Dean" under the C collation). ICU root collation at primary strength ignores case and accents
-- (ks-level1) and, with alternate=shifted (ka-shifted), spaces and punctuation: "de la Cruz" sorts
-- as "delacruz", "O'Rourke" as "orourke", "Álvarez" with "Alvarez". Particles stay part of the
-- surname, as US legislatures, the Congressional Biographical Directory and roll-call orders file
-- them ("de la Cruz" under D, "Van Hollen" under V). Deterministic, so equal keys still break ties
-- by bytes and ORDER BY stays stable; used only in ORDER BY (never for equality or LIKE).
CREATE COLLATION IF NOT EXISTS name_sort (provider = icu, locale = 'und-u-ka-shifted-ks-level1');

-- The orders the list endpoints now use, so a page is still read from an index in order (a sort
-- by this collation costs an ICU comparison per row pair). They replace the byte-order indexes,
-- which no query orders by any more; their leading columns still serve the state filters.
CREATE INDEX people_state_name_sort ON people (state_id, last_name COLLATE name_sort, first_name COLLATE name_sort, last_name, first_name, people_id);
DROP INDEX IF EXISTS people_state_surname;
CREATE INDEX candidates_name_sort ON candidates (name COLLATE name_sort, name, id);
CREATE INDEX candidates_state_name_sort ON candidates (state, name COLLATE name_sort, name, id);
DROP INDEX IF EXISTS candidates_name;
DROP INDEX IF EXISTS candidates_state_name;
