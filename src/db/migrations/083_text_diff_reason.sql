-- TextDiff: the diff worker stored (or changed, or removed) a bill's computed text change, which
-- shows in the bill's `changes` part. Outside LegiScan's ls_reason range so a mirror receiver never
-- takes it for one of theirs; it is never pushed nor sent to webhooks (src/domain/events.ts).
INSERT INTO change_reasons (reason_id, reason_name) VALUES (100, 'TextDiff');
