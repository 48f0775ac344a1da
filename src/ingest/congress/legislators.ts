// `lds import congress-legislators PATH`: unitedstates/congress-legislators YAML. Current members
// with their full id blocks, committees and subcommittees, and committee membership.
import fs from 'node:fs/promises';
import path from 'node:path';
import { withTransaction, type Pool } from '../../db/pool.js';
import { BatchWriter } from '../write/batch.js';
import { memberRole, upsertCommittee } from '../write/committees.js';
import { queuePerson } from '../write/people-group.js';
import type { PersonRecord } from '../write/people.js';
import { PARTY_NAMES, partyId } from '../write/reference.js';
import { congressDistrict } from '../../domain/congress-district.js';
import { foldPlaceholders } from './people.js';
import { ImportReport, RecordError, type ReportOptions } from '../write/report.js';
import { parseYaml } from '../read/yaml.js';
import type { CommitteeMembership, CommitteeYaml, Legislator } from './source.js';

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** Ids kept in external_ids. */
const EXTRA_IDS = [
  'thomas',
  'govtrack',
  'icpsr',
  'wikidata',
  'cspan',
  'house_history',
  'maplight',
  'google_entity_id',
  'pictorial',
] as const;

export function mapLegislator(m: Legislator): PersonRecord {
  const id = m.id ?? {};
  const name = m.name ?? {};
  if (!id.bioguide) throw new RecordError('missing id.bioguide', 'id.bioguide');
  const terms = Array.isArray(m.terms) ? m.terms : [];
  const term = terms[terms.length - 1];
  if (!term) throw new RecordError('no terms', 'terms');
  const sen = term.type === 'sen';
  const pid = partyId(s(term.party));
  const extra: Record<string, string> = {};
  if (term.state) extra.state = s(term.state);
  for (const k of EXTRA_IDS) if (id[k] !== undefined) extra[k] = s(id[k]);
  return {
    source: 'congress-legislators',
    ids: {
      bioguide: s(id.bioguide),
      lis: s(id.lis) || undefined,
      votesmart: s(id.votesmart) || undefined,
      opensecrets: s(id.opensecrets) || undefined,
      ballotpedia: s(id.ballotpedia) || undefined,
      fec: (Array.isArray(id.fec) ? id.fec : []).map(String),
    },
    extra,
    state_id: 52,
    role_id: sen ? 2 : 1,
    chamber: sen ? 'Senate' : 'House',
    body_id: sen ? 115 : 114,
    party_id: pid,
    party_name: PARTY_NAMES[pid] || s(term.party),
    name: s(name.official_full) || `${s(name.first)} ${s(name.last)}`.trim(),
    first_name: s(name.first),
    middle_name: s(name.middle),
    last_name: s(name.last),
    suffix: s(name.suffix),
    nickname: s(name.nickname),
    district: congressDistrict(sen, s(term.state), term.district),
    active: true,
  };
}

/** A file of the repository, parsed as the shape the caller names: the one place its records get a type. */
async function readYaml<T>(file: string): Promise<T> {
  return parseYaml(await fs.readFile(file, 'utf8')) as T;
}

export async function importCongressLegislators(
  pool: Pool,
  target: string,
  opts: ReportOptions = {},
): Promise<ImportReport> {
  const report = new ImportReport('congress-legislators', opts);
  const byBioguide = new Map<string, number>();
  // people_ids here are stable under a replay (derived from bioguide or joined), so the map survives one.
  const writer = new BatchWriter(pool, report, 500);
  try {
    const members = await readYaml<Legislator[]>(path.join(target, 'legislators-current.yaml'));
    report.expect(members.length);
    for (const [i, m] of members.entries()) {
      report.tick();
      let rec: PersonRecord;
      try {
        rec = mapLegislator(m);
      } catch (err) {
        report.problem('people', `legislators-current.yaml[${i}]`, err);
        continue;
      }
      await writer.run('people', `legislators-current.yaml[${i}]`, async (_db, w) =>
        queuePerson(w, rec, (id) => byBioguide.set(rec.ids.bioguide!, id)),
      );
    }
    // Committees look their members up among the people just queued: write those first.
    await writer.commit();
    // Placeholders (Senate votes name senators by LIS id) of the members just written: merged into them.
    const folded = await withTransaction(pool, foldPlaceholders);
    if (folded) report.count('placeholders merged', 'updated', folded);
    const committees =
      (await readYaml<CommitteeYaml[] | null>(path.join(target, 'committees-current.yaml')).catch(() => [])) ?? [];
    const membership =
      (await readYaml<CommitteeMembership | null>(path.join(target, 'committee-membership-current.yaml')).catch(
        (): CommitteeMembership => ({}),
      )) ?? {};
    const write = async (c: CommitteeYaml, thomas: string, parent: string | undefined, type: string) => {
      const body = type === 'house' ? 114 : type === 'senate' ? 115 : 123;
      const list = membership[thomas] ?? [];
      const people = list
        .map((x) => ({ people_id: byBioguide.get(s(x.bioguide))!, role: memberRole(s(x.title)) }))
        .filter((x) => x.people_id);
      if (people.length < list.length) report.skip('committee members', 'member not among current legislators');
      await writer.run(
        'committees',
        `committees-current.yaml ${thomas}`,
        async (db, w) =>
          (
            await upsertCommittee(
              db,
              {
                key: ['thomas_id', thomas],
                state_id: 52,
                body_id: body,
                chamber: type === 'house' ? 'House' : type === 'senate' ? 'Senate' : 'Joint',
                committee_name: s(c.name),
                committee_type: parent ? 'subcommittee' : type === 'joint' ? 'joint' : 'standing',
                website_url: s(c.url),
                description: s(c.jurisdiction),
                parent_key: parent ? ['thomas_id', parent] : undefined,
                source: 'congress-legislators',
                external_ids: {},
                members: people,
              },
              w,
            )
          ).outcome,
      );
    };
    report.expect(committees.length);
    for (const c of committees) {
      report.tick();
      try {
        const thomas = s(c.thomas_id);
        if (!thomas || !c.name) throw new RecordError('missing thomas_id or name', c.name ? 'thomas_id' : 'name');
        await write(c, thomas, undefined, s(c.type));
        for (const sub of Array.isArray(c.subcommittees) ? c.subcommittees : [])
          await write(sub, thomas + s(sub.thomas_id), thomas, s(c.type));
      } catch (err) {
        report.problem('committees', `committees-current.yaml ${s(c.thomas_id)}`, err);
      }
    }
    await writer.commit();
  } finally {
    await writer.close();
    report.finish();
  }
  return report;
}
