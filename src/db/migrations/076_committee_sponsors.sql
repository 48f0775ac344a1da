-- A LegiScan committee sponsor ("Joint Budget Committee", committee_sponsor 1) is a committee, not
-- a legislator. Its people row stays (LegiScan keys sponsors by people_id, and the push-mirror
-- sends it back as LegiScan does), marked with the committee it stands for, so the legislator
-- endpoints leave it out and a sponsor row names the committee.
ALTER TABLE people ADD COLUMN committee_id int NOT NULL DEFAULT 0;

UPDATE people p SET committee_id = s.committee_id
  FROM (SELECT DISTINCT ON (people_id) people_id, committee_id FROM bill_sponsors
         WHERE committee_sponsor = 1 AND committee_id > 0 ORDER BY people_id, committee_id) s
 WHERE s.people_id = p.people_id;

-- Every committee a sponsor stands for exists as a committee.
INSERT INTO committees (committee_id, state_id, body_id, chamber, committee_name, source)
SELECT p.committee_id, p.state_id, p.body_id, p.chamber, p.name, p.source
  FROM people p WHERE p.committee_id > 0 AND p.name <> ''
ON CONFLICT (committee_id) DO NOTHING;

CREATE INDEX people_committees ON people (committee_id) WHERE committee_id > 0;
