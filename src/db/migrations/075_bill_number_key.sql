-- One rule for the bill number key (src/domain/bill-number.ts, which a test holds this function to):
-- separator noise (whitespace, dots, dashes, underscores) removed, other punctuation kept, leading
-- zeros of every numeric run stripped. Importers once stored a key that also dropped "/" and "()"
-- and kept zeros after a digit-less prefix such as "0123", so those bills could not be found by
-- their number; every stored key is recomputed with the one rule.
CREATE FUNCTION lds_bill_number_key(raw text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN regexp_replace(regexp_replace(upper(raw), '[-[:space:]._]', '', 'g'), '(^|[^0-9])0+(?=[0-9])', '\1', 'g');

UPDATE bills SET bill_number_key = lds_bill_number_key(bill_number)
 WHERE bill_number_key IS DISTINCT FROM lds_bill_number_key(bill_number);
