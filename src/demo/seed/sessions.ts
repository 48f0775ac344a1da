// Sessions per jurisdiction: the sitting 2025-2026 regular session (a few already adjourned),
// the adjourned 2023-2024 session (prior), special sessions in some states and a 2027 prefile
// window in others (no start date yet).
import { DEMO_ID_BASE, dayOf, isoDate, isoTime, type SeedContext } from './context.js';
import type { CopyBuffer } from './copy.js';
import { rngFor } from './prng.js';

export interface SessionInfo {
  session_id: number;
  state_id: number;
  kind: 'regular' | 'prior' | 'special' | 'prefile';
  year_start: number;
  start: string;
  end: string | null;
}

export const SESSION_COLUMNS = [
  'session_id',
  'state_id',
  'year_start',
  'year_end',
  'special',
  'session_tag',
  'session_title',
  'session_name',
  'sine_die',
  'session_start_date',
  'actual_sine_die_date',
  'expected_sine_die_date',
  'prefile',
  'prior',
  'source_url',
  'source',
  'updated',
];

export function generateSessions(ctx: SeedContext, out: CopyBuffer): Map<number, SessionInfo[]> {
  const byState = new Map<number, SessionInfo[]>();
  for (const st of ctx.states) {
    const rng = rngFor(ctx.seed, `sessions:${st.state_id}`);
    const list: SessionInfo[] = [];
    const id = (k: number) => DEMO_ID_BASE + st.state_id * 10 + k;
    const isUS = st.state_abbr === 'US';
    const isDC = st.state_abbr === 'DC';
    const name = (y0: number, y1: number, special = 0) =>
      isUS
        ? `${119 - (2025 - y0) / 2}th Congress`
        : isDC
          ? `Council Period ${26 - (2025 - y0) / 2}`
          : special
            ? `${y0} ${special === 1 ? '1st' : '2nd'} Special Session`
            : `${y0}-${y1} Regular Session`;
    const url = `https://legislature.example.gov/${st.state_abbr.toLowerCase()}/sessions/`;
    const row = (
      s: SessionInfo,
      extra: {
        special: number;
        title: string;
        sineDie: number;
        actual: string | null;
        expected: string;
        prefile: number;
        prior: number;
        tag: string;
        nullStart?: boolean;
      },
    ) => {
      list.push(s);
      out.row([
        s.session_id,
        st.state_id,
        s.year_start,
        s.kind === 'special' || s.kind === 'prefile' ? s.year_start : s.year_start + 1,
        extra.special,
        extra.tag,
        extra.title,
        `${extra.title}`,
        extra.sineDie,
        s.kind === 'prefile' || extra.nullStart ? null : s.start,
        extra.actual,
        extra.expected,
        extra.prefile,
        extra.prior,
        url + s.session_id,
        'demo',
        isoTime(dayOf(s.start) + 30 * 86_400_000),
      ]);
    };
    // The 2023-2024 session: adjourned, marked prior. A few legacy rows lack a start date.
    const priorStart = `2023-01-${String(rng.int(3, 17)).padStart(2, '0')}`;
    const priorEnd = `2024-${String(rng.int(3, 6)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    row(
      { session_id: id(0), state_id: st.state_id, kind: 'prior', year_start: 2023, start: priorStart, end: priorEnd },
      {
        special: 0,
        title: name(2023, 2024),
        sineDie: 1,
        actual: priorEnd,
        expected: priorEnd,
        prefile: 0,
        prior: 1,
        tag: 'Regular Session',
        nullStart: rng.chance(0.15),
      },
    );
    // The 2025-2026 session: sitting in most states; some adjourned sine die already.
    const start = `2025-01-${String(rng.int(6, 14)).padStart(2, '0')}`;
    const adjourned = !isUS && !isDC && rng.chance(0.3);
    const actual = adjourned
      ? `2026-${String(rng.int(3, 6)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
      : null;
    const expected =
      isUS || isDC
        ? '2026-12-31'
        : (actual ?? `2026-${String(rng.int(5, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`);
    row(
      { session_id: id(1), state_id: st.state_id, kind: 'regular', year_start: 2025, start, end: actual },
      {
        special: 0,
        title: name(2025, 2026),
        sineDie: adjourned ? 1 : 0,
        actual,
        expected,
        prefile: 0,
        prior: 0,
        tag: 'Regular Session',
      },
    );
    // Special sessions (states only).
    if (!isUS && !isDC && rng.chance(0.35)) {
      const n = rng.chance(0.3) ? 2 : 1;
      for (let k = 1; k <= n; k++) {
        const s0 = dayOf('2026-01-01') + rng.int(100, 300) * 86_400_000;
        const sitting = s0 + 10 * 86_400_000 > dayOf('2026-11-20');
        const e = sitting ? null : isoDate(s0 + rng.int(2, 10) * 86_400_000);
        row(
          {
            session_id: id(1 + k),
            state_id: st.state_id,
            kind: 'special',
            year_start: 2026,
            start: isoDate(s0),
            end: e,
          },
          {
            special: 1,
            title: name(2026, 2026, k),
            sineDie: sitting ? 0 : 1,
            actual: e,
            expected: e ?? isoDate(s0 + 14 * 86_400_000),
            prefile: 0,
            prior: 0,
            tag: `${k === 1 ? '1st' : '2nd'} Special Session`,
          },
        );
      }
    }
    // The 2027 prefile window: bills are filed before the session starts, so no start date.
    if (!isUS && !isDC && rng.chance(0.3)) {
      row(
        { session_id: id(5), state_id: st.state_id, kind: 'prefile', year_start: 2027, start: '2026-11-16', end: null },
        {
          special: 0,
          title: '2027 Regular Session',
          sineDie: 0,
          actual: null,
          expected: '2027-05-31',
          prefile: 1,
          prior: 0,
          tag: 'Regular Session',
        },
      );
    }
    byState.set(st.state_id, list);
  }
  return byState;
}
