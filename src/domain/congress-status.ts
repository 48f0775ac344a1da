// unitedstates/congress bill status codes (the bill JSON's `status`, and the `status` its actions
// carry) against the service's ladder. One row per code the scraper documents (GovTrack's bill
// status list, which it emits), each with the ladder step and whether the code is final (the bill's
// `completed` flag). A code not in the table is an error for the importer: a new upstream code is
// decided here, never guessed from its prefix.
import { STATUS } from './status.js';

export interface CongressStep {
  status_id: number;
  /** the code ends the bill's course (the importer's `completed`) */
  final: boolean;
}

const step = (status_id: number, final: boolean): CongressStep => Object.freeze({ status_id, final });
const { Introduced, InCommittee, PassedOneChamber, PassedBothChambers, Signed, Vetoed, Failed } = STATUS;

/** Congress status code → ladder step and finality. */
export const CONGRESS_TO_LADDER: Readonly<Record<string, CongressStep>> = Object.freeze({
  INTRODUCED: step(Introduced, false),
  REFERRED: step(InCommittee, false),
  REPORTED: step(InCommittee, false), // ordered reported: out of committee, not yet voted on the floor
  'PASS_OVER:HOUSE': step(PassedOneChamber, false),
  'PASS_OVER:SENATE': step(PassedOneChamber, false),
  'PASS_BACK:HOUSE': step(PassedOneChamber, false), // passed with changes: the chambers' texts still differ
  'PASS_BACK:SENATE': step(PassedOneChamber, false),
  'CONFERENCE:PASSED:HOUSE': step(PassedOneChamber, false), // one chamber agreed to the conference report
  'CONFERENCE:PASSED:SENATE': step(PassedOneChamber, false),
  'PASSED:BILL': step(PassedBothChambers, false), // enrolled, sent to the President, not yet signed
  // Resolutions that end where they pass (no President): passed, and final.
  'PASSED:SIMPLERES': step(PassedBothChambers, true),
  'PASSED:CONCURRENTRES': step(PassedBothChambers, true),
  'PASSED:CONSTAMEND': step(PassedBothChambers, true), // goes to the states, not to the President
  // Provisional kills: a vote failed but may be taken again, so not final.
  'PROV_KILL:SUSPENSIONFAILED': step(Failed, false),
  'PROV_KILL:CLOTUREFAILED': step(Failed, false),
  'PROV_KILL:PINGPONGFAIL': step(Failed, false),
  'PROV_KILL:VETO': step(Vetoed, false), // vetoed, override still possible
  'FAIL:ORIGINATING:HOUSE': step(Failed, true),
  'FAIL:ORIGINATING:SENATE': step(Failed, true),
  'FAIL:SECOND:HOUSE': step(Failed, true),
  'FAIL:SECOND:SENATE': step(Failed, true),
  'VETOED:POCKET': step(Vetoed, true),
  'VETOED:OVERRIDE_PASS_OVER:HOUSE': step(Vetoed, false), // one chamber overrode; the other has yet to
  'VETOED:OVERRIDE_PASS_OVER:SENATE': step(Vetoed, false),
  'VETOED:OVERRIDE_FAIL_ORIGINATING:HOUSE': step(Vetoed, true),
  'VETOED:OVERRIDE_FAIL_ORIGINATING:SENATE': step(Vetoed, true),
  'VETOED:OVERRIDE_FAIL_SECOND:HOUSE': step(Vetoed, true),
  'VETOED:OVERRIDE_FAIL_SECOND:SENATE': step(Vetoed, true),
  // Enacted: Signed into Law; raised to Chaptered once the law has its number (congressLadder).
  'ENACTED:SIGNED': step(Signed, true),
  'ENACTED:VETO_OVERRIDE': step(Signed, true),
  'ENACTED:TENDAYRULE': step(Signed, true),
  'ENACTED:UNKNOWN': step(Signed, true),
});

/**
 * The ladder step of a Congress bill. An enacted bill that carries its public (or private) law
 * number (`enacted_as`, or the `enacted` action's number) is 8 Chaptered: the law number is the
 * federal chaptering, as a state's chapter number is; without one it is 5 Signed into Law.
 * Undefined for a code the table does not know.
 */
export function congressLadder(status: string, lawNumber: boolean): CongressStep | undefined {
  const known = Object.hasOwn(CONGRESS_TO_LADDER, status) ? CONGRESS_TO_LADDER[status] : undefined;
  if (known && lawNumber && known.status_id === STATUS.Signed) return step(STATUS.Chaptered, true);
  return known;
}
