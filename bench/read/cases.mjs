// The read benchmark's endpoints: the path the load generator asks for, and the bare baseline's
// answer to it, built from the same repository functions (dist/) as the route, serialised with
// JSON.stringify, with none of the app's validation, authentication, limits or schemas.
import { getBill, searchBills, subresource } from '../../dist/api/bills/repository.js';
import { embedParts, PART_NAMES } from '../../dist/api/bills/parts.js';
import { roster } from '../../dist/api/legislators/repository.js';
import { memberVotes } from '../../dist/api/votes/repository.js';
import { changesPage } from '../../dist/changes/repository.js';

/** Words picked from the demo vocabulary (ts_stat over the 30,000 bills; the generator is the same at 1M). */
export const COMMON_WORD = 'health'; // in about one bill in nine
export const RARE_WORD = 'homestead'; // in about one bill in 680

const page = (data, limit) => ({ data, pagination: { limit, offset: 0, returned: data.length } });

/**
 * ids: { billId, state, stateId, rollCallId, changesSince }. Each case: a short key, the name in
 * the table, the path (the same for app and baseline) and the baseline's body for that path.
 */
export function readCases(ids) {
  const { billId, state, stateId, rollCallId, changesSince } = ids;
  return [
    {
      key: 'bill',
      name: 'GET /v1/bills/{id}',
      path: `/v1/bills/${billId}`,
      base: async (db) => ({ data: await getBill(db, billId) }),
    },
    {
      key: 'history',
      name: 'GET /v1/bills/{id}/history',
      path: `/v1/bills/${billId}/history`,
      base: async (db) => ({ data: await subresource(db, 'history', billId) }),
    },
    {
      key: 'include_all',
      name: 'GET /v1/bills/{id}?include=all',
      path: `/v1/bills/${billId}?include=all`,
      base: async (db) => ({ data: (await embedParts(db, [await getBill(db, billId)], PART_NAMES))[0] }),
    },
    {
      key: 'bills_state',
      name: `GET /v1/bills?state=${state}`,
      path: `/v1/bills?state=${state}`,
      base: async (db) => page(await searchBills(db, { stateId, limit: 50, offset: 0 }), 50),
    },
    {
      key: 'q_common',
      name: `GET /v1/bills?q=${COMMON_WORD}`,
      path: `/v1/bills?q=${COMMON_WORD}`,
      base: async (db) => page(await searchBills(db, { q: COMMON_WORD, limit: 50, offset: 0 }), 50),
    },
    {
      key: 'q_rare',
      name: `GET /v1/bills?q=${RARE_WORD}`,
      path: `/v1/bills?q=${RARE_WORD}`,
      base: async (db) => page(await searchBills(db, { q: RARE_WORD, limit: 50, offset: 0 }), 50),
    },
    {
      key: 'legislators_state',
      name: `GET /v1/legislators?state=${state}`,
      path: `/v1/legislators?state=${state}`,
      base: async (db) => page(await roster(db, { stateId, limit: 100, offset: 0 }), 100),
    },
    {
      key: 'vote_details',
      name: 'GET /v1/votes/{id}/details',
      path: `/v1/votes/${rollCallId}/details`,
      base: async (db) => {
        const rows = (await memberVotes(db, [rollCallId])).map(({ _rc, ...row }) => row);
        return { data: rows, summary: { roll_call_id: rollCallId, total: rows.length } };
      },
    },
    {
      key: 'changes',
      name: 'GET /v1/changes (a page of up to 200)',
      path: `/v1/changes?since=${encodeURIComponent(changesSince)}`,
      base: async (db) => {
        const limit = 200;
        const { since, highWater, rows } = await changesPage(db, { since: changesSince, limit: limit + 1 });
        const data = rows.slice(0, limit);
        const serverNow = rows.length > limit ? data[data.length - 1].changed_at : highWater;
        return {
          data: data.reverse(),
          summary: { since, server_now: serverNow < since && rows.length <= limit ? since : serverNow },
        };
      },
    },
  ];
}
