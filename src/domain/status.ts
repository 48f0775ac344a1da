// The service's own status ladder (spec: "Status ladder") and its aggregate buckets. Providers'
// integers never reach a client unmapped: each source has its own table (legiscan-status.ts,
// congress-status.ts) from its codes to these steps.

export const STATUS = Object.freeze({
  Introduced: 1,
  InCommittee: 2,
  PassedOneChamber: 3,
  PassedBothChambers: 4,
  Signed: 5,
  Vetoed: 6,
  Failed: 7,
  Chaptered: 8,
});
export type StatusId = (typeof STATUS)[keyof typeof STATUS];

export const STATUS_NAMES: Readonly<Record<StatusId, string>> = Object.freeze({
  1: 'Introduced',
  2: 'In Committee',
  3: 'Passed One Chamber',
  4: 'Passed Both Chambers',
  5: 'Signed into Law',
  6: 'Vetoed',
  7: 'Failed / Dead',
  8: 'Chaptered (law)',
});

export type StatusBucket = 'alive' | 'passed' | 'failed';

/** The spec's aggregate buckets: passed = {4, 5, 8}; failed = {6, 7}; alive = {1, 2, 3}. */
export function statusBucket(statusId: number): StatusBucket {
  if (statusId === 4 || statusId === 5 || statusId === 8) return 'passed';
  if (statusId === 6 || statusId === 7) return 'failed';
  return 'alive';
}

export const isStatusId = (n: number): n is StatusId => Number.isInteger(n) && n >= 1 && n <= 8;
