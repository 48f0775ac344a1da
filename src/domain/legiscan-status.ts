// LegiScan's status/progress codes (reference/legiscan.md §1.4) against the service's ladder
// (statuses table, 1..8). The ONE place both directions live: importers map LegiScan → ladder,
// the push-mirror maps ladder → LegiScan. Keep both tables stable; tests pin them.

/** LegiScan status / progress event → ladder status_id. */
export const LEGISCAN_TO_LADDER: Readonly<Record<number, number>> = Object.freeze({
  0: 1, // Prefiled → Introduced (the ladder has no prefile step)
  1: 1, // Introduced
  2: 3, // Engrossed → Passed One Chamber
  3: 4, // Enrolled → Passed Both Chambers
  4: 4, // Passed → Passed Both Chambers (the governor has not acted yet)
  5: 6, // Vetoed
  6: 7, // Failed → Failed / Dead
  7: 5, // Veto Override → Signed into Law (law without signature)
  8: 8, // Chaptered
  9: 2, // Committee Referral → In Committee
  10: 2, // Committee Report Pass → still In Committee until the floor acts
  11: 7, // Committee Report DNP → Failed / Dead
  12: 1, // Draft → Introduced
});

/**
 * Ladder status_id → LegiScan `status` (bill status field) and `progress` event code, for the
 * push-mirror. `status` stays within LegiScan's 1..6 bill-status range where one exists;
 * `progress` is the event a LegiScan receiver would see appended for that step.
 */
export const LADDER_TO_LEGISCAN: Readonly<Record<number, { status: number; progress: number }>> = Object.freeze({
  1: { status: 1, progress: 1 }, // Introduced
  2: { status: 1, progress: 9 }, // In Committee: still status Introduced, progress Refer
  3: { status: 2, progress: 2 }, // Passed One Chamber: Engrossed
  4: { status: 4, progress: 4 }, // Passed Both Chambers: Passed
  5: { status: 4, progress: 4 }, // Signed into Law: LegiScan has no signing event; Passed is what it shows
  6: { status: 5, progress: 5 }, // Vetoed
  7: { status: 6, progress: 6 }, // Failed / Dead
  8: { status: 4, progress: 8 }, // Chaptered: status Passed with a Chaptered progress event (as LegiScan sends)
});

/** Ladder status for a LegiScan status code; unknown codes fall back to Introduced. */
export function ladderFromLegiscan(status: number | null | undefined): number {
  if (status === null || status === undefined) return 1;
  return LEGISCAN_TO_LADDER[status] ?? 1;
}

export function legiscanFromLadder(statusId: number): { status: number; progress: number } {
  return LADDER_TO_LEGISCAN[statusId] ?? { status: 1, progress: 1 };
}
