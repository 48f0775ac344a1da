-- Names sort as people expect, not byte-wise ("Zuber" before "de la Cruz", "DeSaulnier" before
-- "Dean" under the C collation). ICU root collation at primary strength ignores case and accents
-- (ks-level1) and, with alternate=shifted (ka-shifted), spaces and punctuation: "de la Cruz" sorts
-- as "delacruz", "O'Rourke" as "orourke", "Álvarez" with "Alvarez". Particles stay part of the
-- surname, as US legislatures, the Congressional Biographical Directory and roll-call orders file
-- them ("de la Cruz" under D, "Van Hollen" under V). Deterministic, so equal keys still break ties
-- by bytes and ORDER BY stays stable; used only in ORDER BY (never for equality or LIKE).
CREATE COLLATION IF NOT EXISTS name_sort (provider = icu, locale = 'und-u-ka-shifted-ks-level1');
