// LegiScan's coarse status and its progress events onto the ladder (src/domain/legiscan-status.ts).
// Every code the real datasets contain is also compared bill by bill in
// test/ingest/legiscan-fidelity.test.ts; these are the rules by name.
import { describe, expect, it } from 'vitest';
import { ladderForLegiscanBill, type LegiscanStatusInput } from '../../src/domain/legiscan-status.js';

const bill = (over: Partial<LegiscanStatusInput>): LegiscanStatusInput => ({
  status: 1,
  progress: [1],
  billType: 'B',
  actions: [],
  pendingCommittee: false,
  ...over,
});

describe('ladderForLegiscanBill', () => {
  it.each([
    ['introduced', bill({}), 1],
    ['introduced, held in committee', bill({ progress: [1, 9], pendingCommittee: true }), 2],
    ['engrossed', bill({ status: 2, progress: [1, 9, 2] }), 3],
    ['enrolled, awaiting the governor', bill({ status: 3, progress: [1, 2, 3] }), 4],
    [
      'a passed bill (MS: "Approved by Governor")',
      bill({ status: 4, progress: [1, 2, 3, 4], actions: ['Approved by Governor'] }),
      5,
    ],
    ['a passed bill with no executive step published', bill({ status: 4, progress: [1, 2, 3, 4] }), 5],
    [
      'a passed concurrent resolution (no signature needed)',
      bill({ status: 4, billType: 'CR', progress: [1, 2, 4], actions: ['Enrolled Bill Signed'] }),
      4,
    ],
    [
      'a passed resolution whose history shows enactment',
      bill({ status: 4, billType: 'JR', progress: [1, 2, 3, 4], actions: ['Approved by Governor'] }),
      5,
    ],
    [
      'chaptered (AR: "now Act 36", progress 8 then 4)',
      bill({ status: 4, progress: [9, 10, 2, 3, 8, 4], actions: ['House Notification that HB1044 is now Act 36'] }),
      8,
    ],
    ['vetoed', bill({ status: 5, progress: [1, 2, 3, 5] }), 6],
    ['vetoed, then overridden', bill({ status: 5, progress: [1, 2, 3, 5, 7] }), 5],
    ['failed', bill({ status: 6, progress: [1, 9, 6] }), 7],
  ])('%s', (_, input, step) => {
    expect(ladderForLegiscanBill(input)).toBe(step);
  });
});
