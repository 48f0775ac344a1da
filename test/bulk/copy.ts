// A local copy made by `lds sync` against the service it copies: its cursor, and the check that
// it equals the service (bills whole, roll calls, the records outside the change log).
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/pool.js';

/** An API call returning the response body's JSON. */
export type Get = (url: string) => Promise<any>;

/** Resolves with the exit code (null when a signal ended it) once the process has exited. */
export const exited = (c: ChildProcess) =>
  new Promise<number | null>((r) =>
    c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code)),
  );

/** The copy's stored feed cursor (undefined before the first load). */
export const copyCursor = async (copy: Queryable) =>
  (
    await copy
      .query<{ feed_cursor: string }>(`SELECT feed_cursor FROM lds_sync_state WHERE id = 1`)
      .catch(() => ({ rows: [] as Array<{ feed_cursor: string }> }))
  ).rows[0]?.feed_cursor;

/** The service's newest change, as a feed cursor. */
export const latestChange = async (service: Queryable) =>
  (
    await service.query<{ c: string }>(
      `SELECT to_char(max(changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS c FROM changes`,
    )
  ).rows[0].c;

/**
 * The copy equals the service: every bill as GET /v1/bills?include=all, every part (the text
 * changes the diff worker computes late included: each makes a TextDiff change the copy follows),
 * every roll call (those written by the simulator, ids from 50,000,000, against the API one by
 * one), and the records outside the change log as counted by the bulk listing.
 */
export async function expectCopyEqualsService(copy: Queryable, service: Queryable, get: Get): Promise<void> {
  const bills = new Map(
    (await copy.query<{ id: string; data: any }>('SELECT id, data FROM lds_bills')).rows.map((r) => [
      Number(r.id),
      r.data,
    ]),
  );
  const served = new Map<number, unknown>();
  for (let offset = 0; ; offset += 500) {
    const page = (await get(`/v1/bills?include=all&limit=500&offset=${offset}`)).data as Array<{ bill_id: number }>;
    for (const b of page) served.set(b.bill_id, b);
    if (page.length < 500) break;
  }
  expect(bills.size).toBe(served.size);
  for (const [id, bill] of served) expect(bills.get(id), `bill ${id}`).toEqual(bill);
  const rollCalls = (await copy.query<{ data: any }>('SELECT data FROM lds_roll_calls')).rows.map((r) => r.data);
  expect(rollCalls.length).toBe(
    (await service.query<{ n: number }>('SELECT count(*)::int AS n FROM roll_calls')).rows[0].n,
  );
  for (const rc of rollCalls.filter((r) => r.roll_call_id >= 50_000_000)) {
    const { member_votes, ...header } = rc;
    expect(header).toEqual((await get(`/v1/votes/${rc.roll_call_id}`)).data);
    expect(member_votes).toEqual((await get(`/v1/votes/${rc.roll_call_id}/details`)).data);
  }
  const n = async (table: string) =>
    (await copy.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  const counts = (await get('/v1/bulk')).data[0].counts;
  expect(await n('lds_legislators')).toBe(counts.legislators);
  expect(await n('lds_committees')).toBe(counts.committees);
  expect(await n('lds_topics')).toBeGreaterThan(0);
}
