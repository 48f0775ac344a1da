// Reference lookups every importer needs: states by abbreviation, chambers (bodies) by state and
// role, parties by name. Loaded once per import.
import type { Queryable } from '../../db/pool.js';

export interface Body {
  body_id: number;
  state_id: number;
  role_id: number;
  body_abbr: string;
  body_short: string;
}

export interface Reference {
  stateByAbbr: Map<string, number>;
  bodyById: Map<number, Body>;
  body(stateId: number, roleId: number): Body | undefined;
}

export async function loadReference(db: Queryable): Promise<Reference> {
  const states = await db.query<{ state_id: number; state_abbr: string }>('SELECT state_id, state_abbr FROM states');
  const bodies = await db.query<Body>('SELECT body_id, state_id, role_id, body_abbr, body_short FROM bodies');
  const stateByAbbr = new Map(states.rows.map((s) => [s.state_abbr.trim().toUpperCase(), s.state_id]));
  const bodyById = new Map(bodies.rows.map((b) => [b.body_id, b]));
  const byStateRole = new Map(bodies.rows.map((b) => [`${b.state_id}:${b.role_id}`, b]));
  return {
    stateByAbbr,
    bodyById,
    // Unicameral Nebraska and the DC Council have one body: every role resolves to it.
    body: (stateId, roleId) =>
      byStateRole.get(`${stateId}:${roleId}`) ?? bodies.rows.find((b) => b.state_id === stateId && b.role_id !== 3),
  };
}

/** Party id (parties table) from a party name or abbreviation as sources spell it. */
export function partyId(name: string | null | undefined): number {
  const n = (name ?? '').trim().toLowerCase();
  if (!n) return 0;
  if (n === 'd' || n.startsWith('democrat')) return 1;
  if (n === 'r' || n.startsWith('republican')) return 2;
  if (n === 'i' || n.startsWith('independent')) return 3;
  if (n === 'g' || n.startsWith('green')) return 4;
  if (n === 'l' || n.startsWith('libertarian')) return 5;
  if (n === 'n' || n.startsWith('nonpartisan')) return 6;
  return 0;
}

export const PARTY_NAMES: Record<number, string> = {
  0: '',
  1: 'Democrat',
  2: 'Republican',
  3: 'Independent',
  4: 'Green',
  5: 'Libertarian',
  6: 'Nonpartisan',
};

/** '' and '0' (LegiScan's "none") become null; everything else a trimmed string. */
export function idText(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v).trim();
  return s === '0' ? '' : s;
}
