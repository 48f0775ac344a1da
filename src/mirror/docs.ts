// The push-mirror's wire format as documented in the OpenAPI description.
export const MIRROR_DOC = `Wire format: one JSON object per POST, Content-Type application/json, Authorization: Token <token>, exactly one root key:
- bill: the full getBill shape (session object, progress, history, sponsors, texts, votes, amendments, supplements, sasts, subjects, calendar,
  referrals, committee) plus last_push ("YYYY-MM-DD HH:MM:SS" of the mirror's last successful push) and reasons (object keyed by LegiScan
  reason id: {"2":"StatusChange"}); sent for every matching change (one push per change, whatever the number of matching events).
- roll_call: getRollCall with member votes [{people_id, vote_id, vote_text}], sent after the bill push for Vote changes and when asked for.
- person: getPerson, sent when the receiver asks for sponsors.
- text, amendment, supplement: getBillText / getAmendment / getSupplement with the document base64 in doc, sent when the receiver asks for
  texts, amendments or supplements. This service holds decoded text, not the original files: doc is an HTML page (mime_id 1) with the type,
  date and stored text (texts) or the title, type, date, description and state link (amendments, supplements); the bill push lists each
  document with the same size, md5 and mime as its document push.
Ids on the wire fit LegiScan's columns (16-bit session_id, people_id, committee_id, subject_id, at most 32,767 for LegiScan's PostgreSQL
schema; 24-bit bill_id, roll_call_id, doc_id, amendment_id, supplement_id): records imported from LegiScan keep LegiScan's ids (people their
LegiScan people_id); every other id (demo 10,000,000+, simulator 50,000,000+, imports 100,000,000+, people up to 2^53) is sent as a wire id
from the mirror's own id map, allocated on first push from the top of the range downward (32,767 down to 16,384; 16,777,215 down to
10,000,000), stable for that mirror, skipping ids LegiScan records in this service use. The API's ids never change; the map only exists on the
wire, and ids a receiver lists in missing are read through it. Limits: 16,384 mapped ids per 16-bit kind and 6,777,216 per 24-bit kind per
mirror (a push needing more fails and is retried); two mirrors send different wire ids for the same record; a LegiScan id imported later
into a range already mapped could coincide with a mapped id.
Values: calendar time is 24-hour "HH:MM" ("8:00 AM" → "08:00"), "00:00" when the time is unknown or not a time (TIME's zero, like
"0000-00-00" for dates); district is LegiScan's form, chamber prefix and zero-padded number ("Hillsborough 26" → "HD-026", "12B" → "HD-012B",
at-large "HD-AL" (also from "VT-AL"), a named district without a number its name cut to 9 characters: "SD-A"); person_hash is 8 hex
characters of the md5 of every field a receiver stores for the person, so it changes with party, role, district or any other of them;
every value fits the column of LegiScan's published schema it lands in: strings keep their first n characters (e.g. roll call desc 255,
bill_number 10), TEXT columns whole characters up to 65,535 UTF-8 bytes, characters beyond the Basic Multilingual Plane become U+FFFD,
counts above their column its maximum, external ids that do not fit 0; url is LegiScan's page for records imported from
LegiScan and this service's API link otherwise (/v1/bills/{id}, /v1/votes/{id}); change_hash is the md5 of the bill as pushed (everything but
last_push and reasons), so it changes exactly when the bill changes; committee is {committee_id, chamber, chamber_id, name} when the pending
committee is known (its row, or the referral naming it), otherwise pending_committee_id is 0 and committee is [] (never [] with a non-zero id).
LegiScan conventions: 0/1 integer flags, "0000-00-00" for unknown dates, bill_type_id and party_id as strings, LegiScan status, progress,
sponsor-type, text-type, vote, body and reason codes; ids as described above.
Status mapping (our ladder → LegiScan status / progress events after Introduced): 1 Introduced → 1 / none; 2 In Committee → 1 / 9 (Refer);
3 Passed One Chamber → 2 / 2 (Engrossed); 4 Passed Both Chambers → 3 / 3 (Enrolled); 5 Signed into Law → 4 / 4 (Passed); 6 Vetoed → 5 / 5;
7 Failed / Dead → 6 / 6; 8 Chaptered → 4 / 4, 8 (Passed, Chaptered).
Bills imported from LegiScan keep LegiScan's own status code.
Receiver replies: {"status":"OK"} = delivered; {"status":"OK","missing":{"bills":[...],"sponsors":[people_id...],"votes":[roll_call_id...],
"texts":[doc_id...],"amendments":[...],"supplements":[...]}} = delivered, then each requested bill, person, roll_call, text, amendment and
supplement is pushed; when a push is delivered after an attempt whose reply never arrived, every child that reply could have listed
(sponsors, roll calls, documents; a roll call's voters) is pushed as if listed. Order: one bill push (or document or roll call push) in flight per
mirror, in queue order, so a receiver never writes two bills at once; person pushes beside it, up to 8 in flight per mirror;
{"status":"ERROR","alert":{"message":"..."}}, a non-JSON reply or a non-2xx status = failed attempt, retried on the webhook schedule; a push
that exhausts its retries is marked failed and the mirror stays active (see the disable rule of POST /v1/webhooks).
Example push (abridged):
{"bill":{"bill_id":1234567,"change_hash":"0f3c...","session_id":2100,"session":{"session_id":2100,"state_id":47,"year_start":2025,
"year_end":2026,"prefile":0,"sine_die":0,"prior":0,"special":0,"session_tag":"Regular Session","session_title":"2025-2026 Regular Session",
"session_name":"69th Legislature"},"url":"https://legiscan.com/WA/bill/SB5048/2025","state_link":"https://app.leg.wa.gov/...","completed":0,
"status":2,"status_date":"2025-03-08","progress":[{"date":"2025-01-09","event":1},{"date":"2025-03-08","event":2}],"state":"WA","state_id":47,
"bill_number":"SB5048","bill_type":"B","bill_type_id":"1","body":"S","body_id":98,"current_body":"H","current_body_id":97,"title":"...",
"description":"...","pending_committee_id":0,"committee":[],"referrals":[],"history":[{"date":"2025-01-09","action":"First reading",
"chamber":"S","chamber_id":98,"importance":1}],"sponsors":[{"people_id":14833,"person_hash":"0yzln07v","party_id":"1","state_id":47,
"party":"D","role_id":2,"role":"Sen","name":"Mark Mullet","first_name":"Mark","middle_name":"","last_name":"Mullet","suffix":"","nickname":"",
"district":"SD-005","ftm_eid":0,"votesmart_id":0,"opensecrets_id":"","knowwho_pid":0,"ballotpedia":"","bioguide_id":"","sponsor_type_id":1,
"sponsor_order":1,"committee_sponsor":0,"committee_id":0,"state_federal":0}],"sasts":[],"subjects":[{"subject_id":3309,"subject_name":"Education"}],
"texts":[],"votes":[{"roll_call_id":1270854,"date":"2025-03-08","desc":"Third Reading","yea":48,"nay":0,"nv":0,"absent":1,"total":49,
"passed":1,"chamber":"S","chamber_id":98,"url":"...","state_link":"..."}],"amendments":[],"supplements":[],"calendar":[],
"last_push":"2025-03-01 12:00:00","reasons":{"2":"StatusChange"}}}
{"roll_call":{"roll_call_id":1270854,"bill_id":1234567,"date":"2025-03-08","desc":"Third Reading","yea":48,"nay":0,"nv":0,"absent":1,
"total":49,"passed":1,"chamber":"S","chamber_id":98,"url":"...","state_link":"...","votes":[{"people_id":14833,"vote_id":1,"vote_text":"Yea"}]}}`;
