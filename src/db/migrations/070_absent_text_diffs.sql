-- Text changes computed between versions whose documents are absent (metadata only) compared two
-- empty strings and reported "identical" (whitespace-only, similarity 1). Such pairs are no longer
-- computed; the rows already stored are removed, and so are queued pairs of that kind.
DELETE FROM text_changes tc
 WHERE EXISTS (SELECT 1 FROM bill_texts t WHERE t.text_id IN (tc.from_text_id, tc.to_text_id) AND t.content IS NULL);
DELETE FROM text_diff_queue q
 WHERE EXISTS (SELECT 1 FROM bill_texts t WHERE t.text_id IN (q.from_text_id, q.to_text_id) AND t.content IS NULL);
