// The unitedstates/congress and unitedstates/congress-legislators files the importers read, as far
// as they read them. Every field is optional: a record missing one the importer needs fails alone
// (RecordError), and the rest are read with a default. Fields a file gives as null are typed so.

/** A bill's data.json (data/<congress>/bills/<type>/<type><number>/data.json). */
export interface CongressBillJson {
  /** "hr1234-116" */
  bill_id?: string;
  /** hr, s, hres, sres, hconres, sconres, hjres, sjres */
  bill_type?: string;
  number?: string;
  congress?: string;
  /** the bill's status code (INTRODUCED, REFERRED, ENACTED:SIGNED, …) */
  status?: string;
  status_at?: string;
  introduced_at?: string;
  updated_at?: string;
  official_title?: string;
  short_title?: string | null;
  popular_title?: string | null;
  url?: string;
  subjects_top_term?: string | null;
  subjects?: string[];
  summary?: { text?: string } | null;
  /** the law a bill became (its `number`, "116-5") */
  enacted_as?: { number?: string } | null;
  sponsor?: CongressSponsor | null;
  cosponsors?: CongressCosponsor[];
  actions?: CongressAction[];
  committees?: CongressCommitteeActivity[];
  amendments?: CongressAmendment[];
  related_bills?: CongressRelatedBill[];
}

/** A sponsor as a bill names it: "Last, First" and, for a representative, the district. */
export interface CongressSponsor {
  bioguide_id?: string;
  name?: string;
  state?: string;
  /** a representative's district ("12", "0" at large); null for senators */
  district?: string | null;
  /** "Rep", "Sen", "Del", "Resident Commissioner" */
  title?: string;
}

export interface CongressCosponsor extends CongressSponsor {
  /** set when the member withdrew as a cosponsor */
  withdrawn_at?: string | null;
}

export interface CongressAction {
  /** action, referral, calendar, vote, vote-aux, topresident, signed, enacted, … */
  type?: string;
  text?: string;
  acted_at?: string;
  /** a House floor or introduction code (H11100, Intro-H, Intro-S); absent on most Senate steps */
  action_code?: string;
  /** a vote's chamber: "h" or "s" */
  where?: string;
  /** an `enacted` action's law number */
  number?: string;
  /** THOMAS codes of the committees the action names */
  committees?: string[];
}

export interface CongressCommitteeActivity {
  committee?: string;
  /** THOMAS code of the committee ("HSJU") */
  committee_id?: string;
  subcommittee?: string;
  /** the subcommittee's two-digit suffix to committee_id */
  subcommittee_id?: string;
  /** referral, reporting, hearings, markup, … */
  activity?: string[];
}

export interface CongressAmendment {
  amendment_id?: string;
  /** samdt, hamdt, supamdt */
  amendment_type?: string;
  /** "h" or "s" */
  chamber?: string;
  number?: string;
}

export interface CongressRelatedBill {
  /** "bill", or a nomination, … */
  type?: string;
  bill_id?: string;
  /** identical, related, procedurally-related, … */
  reason?: string;
}

/** A roll call's data.json (data/<congress>/votes/<year>/<chamber><number>/data.json). */
export interface CongressVoteJson {
  /** "s123-116.2019" */
  vote_id?: string;
  /** "h" or "s" */
  chamber?: string;
  date?: string;
  question?: string;
  result?: string;
  source_url?: string;
  /** the bill voted on; absent on nominations, quorum calls and procedural votes */
  bill?: { type?: string; number?: number; congress?: number };
  /**
   * Members by vote option ("Yea", "Nay", "Not Voting", "Present", "Guilty", …). The Vice
   * President breaking a Senate tie is listed as the string "VP", not a member record.
   */
  votes?: Record<string, (CongressVoter | string)[]>;
}

/** A member in a roll call: House members by bioguide id, senators by LIS id. */
export interface CongressVoter {
  id?: string;
  /** "Pelosi (D-CA)" */
  display_name?: string;
  /** given on Senate votes only */
  first_name?: string;
  last_name?: string;
  party?: string;
  state?: string;
}

/** A member of legislators-current.yaml. */
export interface Legislator {
  id?: LegislatorIds;
  name?: {
    first?: string;
    middle?: string;
    last?: string;
    suffix?: string;
    nickname?: string;
    official_full?: string;
  };
  /** every term served, the current one last */
  terms?: LegislatorTerm[];
}

/** A legislator's ids; some are YAML numbers (govtrack, icpsr, votesmart, …). */
export interface LegislatorIds {
  bioguide?: string;
  lis?: string;
  votesmart?: number;
  opensecrets?: string;
  ballotpedia?: string;
  fec?: string[];
  thomas?: string;
  govtrack?: number;
  icpsr?: number;
  wikidata?: string;
  cspan?: number;
  house_history?: number;
  maplight?: number;
  google_entity_id?: string;
  pictorial?: number;
}

export interface LegislatorTerm {
  /** "rep" or "sen" */
  type?: string;
  state?: string;
  /** a representative's district number (0 at large) */
  district?: number;
  party?: string;
}

/** A committee of committees-current.yaml, or one of its subcommittees. */
export interface CommitteeYaml {
  /** THOMAS code: a committee's ("HSJU"), or a subcommittee's two-digit suffix to it */
  thomas_id?: string;
  name?: string;
  /** house, senate or joint (committees only) */
  type?: string;
  url?: string;
  jurisdiction?: string;
  subcommittees?: CommitteeYaml[];
}

/** committee-membership-current.yaml: members by committee or subcommittee THOMAS code. */
export type CommitteeMembership = Record<string, { bioguide?: string; title?: string }[]>;
