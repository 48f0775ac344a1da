// LegiScan's status/progress codes (reference/legiscan.md §1.4) against the service's ladder
// (src/domain/status.ts). The ONE place both directions live: the importer maps LegiScan → ladder,
// the push-mirror maps ladder → LegiScan. Tests pin both tables against every code the real
// datasets contain.
//
// LegiScan's bill `status` is coarse (1–6): 4 "Passed" means the bill completed its passage and,
// for a bill, became law; a bill that passed both chambers and awaits the governor is 3
// "Enrolled". The `progress` events say more (8 Chaptered, 7 Veto Override), so a bill's step is
// read from both: ladderForLegiscanBill below.
import { STATUS } from './status.js';

/** LegiScan status / progress event → ladder status_id, event by event. */
export const LEGISCAN_TO_LADDER: Readonly<Record<number, number>> = Object.freeze({
  0: STATUS.Introduced, // Prefiled (the ladder has no prefile step)
  1: STATUS.Introduced,
  2: STATUS.PassedOneChamber, // Engrossed
  3: STATUS.PassedBothChambers, // Enrolled: passed both chambers, not yet acted on by the executive
  4: STATUS.Signed, // Passed: became law (resolutions: see ladderForLegiscanBill)
  5: STATUS.Vetoed,
  6: STATUS.Failed, // Failed / Dead
  7: STATUS.Signed, // Veto Override: law over the veto
  8: STATUS.Chaptered, // Chaptered / Act / Statute
  9: STATUS.InCommittee, // Committee Referral
  10: STATUS.InCommittee, // Committee Report Pass: still in committee until the floor acts
  11: STATUS.Failed, // Committee Report DNP
  12: STATUS.Introduced, // Draft
});

/**
 * Ladder status_id → LegiScan `status` (bill status field, LegiScan's own 1..6 codes: 3 Enrolled =
 * passed both chambers, not yet signed; 4 Passed = enacted) and the progress events a LegiScan
 * receiver sees after Introduced, at the status date; `progress` is the last of them (Introduced
 * when there is none). Chaptered is status 4 with Passed then Chaptered, as LegiScan sends a
 * chaptered bill (its WA SB 5048: events 8 and 4 the same day, status 4).
 */
export const LADDER_TO_LEGISCAN: Readonly<
  Record<number, { status: number; progress: number; events: readonly number[] }>
> = Object.freeze({
  1: { status: 1, progress: 1, events: [] }, // Introduced
  2: { status: 1, progress: 9, events: [9] }, // In Committee: still status Introduced, progress Refer
  3: { status: 2, progress: 2, events: [2] }, // Passed One Chamber: Engrossed
  4: { status: 3, progress: 3, events: [3] }, // Passed Both Chambers, not signed: Enrolled
  5: { status: 4, progress: 4, events: [4] }, // Signed into Law: Passed
  6: { status: 5, progress: 5, events: [5] }, // Vetoed
  7: { status: 6, progress: 6, events: [6] }, // Failed / Dead
  8: { status: 4, progress: 8, events: [4, 8] }, // Chaptered: status Passed, progress Passed then Chaptered
});

/** Ladder status for a LegiScan status code; unknown codes fall back to Introduced. */
export function ladderFromLegiscan(status: number | null | undefined): number {
  if (status === null || status === undefined) return STATUS.Introduced;
  return LEGISCAN_TO_LADDER[status] ?? STATUS.Introduced;
}

export function legiscanFromLadder(statusId: number): { status: number; progress: number; events: readonly number[] } {
  return LADDER_TO_LEGISCAN[statusId] ?? LADDER_TO_LEGISCAN[1]!;
}

/** LegiScan bill types that become law when passed; the others are resolutions and memorials. */
const LAW_TYPES = new Set(['B', 'RB', 'CB']); // Bill, Repeal Bill, Committee Bill

// A history step that records executive action or enactment ("Approved by Governor",
// "Signed by Governor", "Became law without signature", "now Act 36", "Chapter 123").
const ENACTED =
  /\b(approved|signed) by (the )?governor\b|\bgovernor (approved|signed)\b|\bbec(ame|omes) (law|effective)\b|\bwithout (the )?(governor'?s )?signature\b|\bnow act \d|\bact no\.? ?\d|\bchapter(ed)? (no\.? ?)?\d/i;

export interface LegiscanStatusInput {
  /** the bill's `status` */
  status: number | null | undefined;
  /** the bill's `progress[].event` codes in published order */
  progress: readonly number[];
  /** the bill's `bill_type` abbreviation (B, R, CR, JR …) */
  billType: string;
  /** the bill's history actions in published order */
  actions: readonly string[];
  /** a committee the bill is pending in */
  pendingCommittee: boolean;
}

/**
 * The ladder step of a LegiScan bill, from its status and what its progress events and history
 * add: Chaptered (event 8) and a veto overridden after it (event 7 after 5) outrank the coarse
 * status; "Passed" is Signed into Law for bills and for resolutions whose history shows
 * enactment, and Passed Both Chambers for resolutions that need no signature (adopted);
 * "Introduced" while a committee holds the bill is In Committee.
 */
export function ladderForLegiscanBill(b: LegiscanStatusInput): number {
  const events = b.progress;
  const status = b.status ?? events[events.length - 1];
  if (events.includes(8)) return STATUS.Chaptered;
  if (status === 5) return events.lastIndexOf(7) > events.lastIndexOf(5) ? STATUS.Signed : STATUS.Vetoed;
  if (status === 4) {
    const enacted = LAW_TYPES.has(b.billType.toUpperCase()) || b.actions.some((a) => ENACTED.test(a));
    return enacted ? STATUS.Signed : STATUS.PassedBothChambers;
  }
  const step = ladderFromLegiscan(status);
  const last = events[events.length - 1];
  if (step === STATUS.Introduced && (b.pendingCommittee || last === 9 || last === 10)) return STATUS.InCommittee;
  return step;
}
