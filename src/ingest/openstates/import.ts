// `lds import openstates-people PATH`: the openstates/people repository's data/ folder.
// Every state, DC and Congress (data/us): legislature/ (current), retired/ (inactive) and
// committees/. Puerto Rico is not one of the service's 52 jurisdictions: counted as skipped.
import fs from 'node:fs/promises';
import path from 'node:path';
import { withTransaction, type Pool } from '../../db/pool.js';
import { BatchWriter } from '../write/batch.js';
import { CommitteeIndex, memberRole, upsertCommittee } from '../write/committees.js';
import { splitPublishedName } from '../../domain/names.js';
import { queuePerson } from '../write/people-group.js';
import type { PersonIds } from '../write/people.js';
import { PARTY_NAMES, loadReference, partyId, type Reference } from '../write/reference.js';
import { ParsePool } from '../read/parse-pool.js';
import { congressDistrict } from '../../domain/congress-district.js';
import { stateIdOf } from '../../domain/states.js';
import { foldPlaceholders } from '../congress/people.js';
import { ImportReport, RecordError, type ReportOptions } from '../write/report.js';
import { committeeParser, personParser, type OpenStatesCommittee, type OpenStatesPerson } from './source.js';

const SCHEMES: Record<string, Exclude<keyof PersonIds, 'fec'>> = {
  bioguide: 'bioguide',
  lis: 'lis',
  votesmart: 'votesmart',
  opensecrets: 'opensecrets',
  followthemoney: 'followthemoney',
  ballotpedia: 'ballotpedia',
};

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of await fs.opendir(dir)) if (e.isFile() && /\.ya?ml$/.test(e.name)) out.push(e.name);
  } catch {
    /* a jurisdiction without this folder */
  }
  return out.sort().map((n) => path.join(dir, n));
}

const roleOf = (type: string) => (type === 'lower' ? 1 : type === 'upper' ? 2 : type === 'legislature' ? 2 : 0);

export function mapOpenStatesPerson(p: OpenStatesPerson, stateId: number, ref: Reference, active: boolean) {
  const id = String(p.id ?? '');
  if (!id.startsWith('ocd-person/')) throw new RecordError('missing or invalid id', 'id');
  const name = String(p.name ?? '').trim();
  if (!name) throw new RecordError('missing name', 'name');
  const roles = Array.isArray(p.roles) ? p.roles : [];
  // The current role is the one without an end date; retired people keep their latest one.
  const role =
    roles.find((r) => !r.end_date) ??
    [...roles].sort((a, b) => String(b.end_date ?? '').localeCompare(String(a.end_date ?? '')))[0];
  const parties = Array.isArray(p.party) ? p.party : [];
  const party = String((parties.find((x) => !x.end_date) ?? parties[0])?.name ?? '');
  const roleId = roleOf(String(role?.type ?? ''));
  const body = roleId ? ref.body(stateId, roleId) : undefined;
  const ids: PersonIds = { openstates: id };
  const extra: Record<string, string> = {};
  for (const oi of Array.isArray(p.other_identifiers) ? p.other_identifiers : []) {
    const scheme = String(oi.scheme ?? '');
    const value = String(oi.identifier ?? '').trim();
    if (!value) continue;
    const known = SCHEMES[scheme];
    if (scheme === 'fec') ids.fec = [...(ids.fec ?? []), value];
    else if (known) ids[known] ??= value;
    else extra[scheme] ??= value;
  }
  for (const [k, v] of Object.entries(p.ids ?? {})) extra[k] ??= String(v);
  const split = p.given_name || p.family_name ? null : splitPublishedName(name);
  const pid = partyId(party);
  return {
    source: 'openstates',
    ids,
    extra,
    state_id: stateId,
    role_id: roleId,
    chamber: body?.body_short ?? '',
    body_id: body?.body_id ?? null,
    party_id: pid,
    party_name: PARTY_NAMES[pid] || party,
    name,
    first_name: String(p.given_name ?? split?.first_name ?? ''),
    middle_name: split?.middle_name ?? '',
    last_name: String(p.family_name ?? split?.last_name ?? ''),
    suffix: String(p.suffix ?? split?.suffix ?? ''),
    nickname: split?.nickname ?? '',
    active,
    // Members of Congress take the one district form of every Congress source ("AL-4", senators "CA").
    district:
      stateId === stateIdOf('US') ? congressDistrict(roleId === 2, '', role?.district) : String(role?.district ?? ''),
  };
}

export async function importOpenStatesPeople(
  pool: Pool,
  target: string,
  opts: ReportOptions = {},
): Promise<ImportReport> {
  const report = new ImportReport('openstates-people', opts);
  const ref = await loadReference(pool);
  const root = (await fs.stat(path.join(target, 'data')).catch(() => null))?.isDirectory()
    ? path.join(target, 'data')
    : target;
  const states = (await fs.readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const byOcd = new Map<string, number>();
  const committees = new CommitteeIndex('openstates');
  const writer = new BatchWriter(pool, report, 500, () => {
    byOcd.clear();
    committees.reset();
  });
  const writeCommittee = async (file: string, c: OpenStatesCommittee, stateId: number) => {
    const id = String(c.id);
    const chamber = String(c.chamber ?? '');
    const body =
      chamber === 'lower' || chamber === 'upper' ? ref.body(stateId, chamber === 'lower' ? 1 : 2) : undefined;
    let unknown = 0;
    await writer.run('committees', file, async (db, w) => {
      const members = [];
      unknown = 0;
      for (const m of Array.isArray(c.members) ? c.members : []) {
        const pid = m.person_id
          ? (byOcd.get(String(m.person_id)) ??
            (
              await db.query<{ people_id: number }>('SELECT people_id FROM people WHERE openstates_id = $1', [
                m.person_id,
              ])
            ).rows[0]?.people_id)
          : undefined;
        if (pid) members.push({ people_id: pid, role: memberRole(String(m.role ?? '')) });
        else unknown++;
      }
      const links = Array.isArray(c.links) ? c.links : [];
      return (
        await upsertCommittee(
          db,
          {
            key: ['openstates', id],
            state_id: stateId,
            body_id: body?.body_id ?? null,
            chamber: body?.body_short ?? (chamber === 'legislature' ? 'Joint' : chamber),
            committee_name: String(c.name),
            committee_type: c.parent
              ? 'subcommittee'
              : String(c.classification ?? 'committee') === 'committee'
                ? 'standing'
                : String(c.classification),
            website_url: String(links[0]?.url ?? ''),
            description: '',
            parent_key: c.parent ? ['openstates', String(c.parent)] : undefined,
            source: 'openstates',
            external_ids: {},
            members,
          },
          w,
          committees,
        )
      ).outcome;
    });
    for (let i = 0; i < unknown; i++) report.skip('committee members', 'member without a known Open States person id');
  };
  // YAML parsing is most of this import's CPU: worker threads do it beside the writes.
  const parsers = new ParsePool();
  try {
    await committees.load(pool);
    for (const st of states) {
      const stateId = ref.stateByAbbr.get(st.toUpperCase());
      const groups: [string, boolean][] = [
        ['legislature', true],
        ['retired', false],
      ];
      const committeeFiles = await yamlFiles(path.join(root, st, 'committees'));
      for (const [folder, active] of groups) {
        const files = await yamlFiles(path.join(root, st, folder));
        report.expect(files.length);
        if (!stateId) {
          for (const _ of files) {
            report.tick();
            report.skip('people', `jurisdiction ${st} is not covered`);
          }
          continue;
        }
        for await (const { file, data, error } of parsers.files(personParser, files)) {
          report.tick();
          let rec;
          try {
            if (!data) throw error;
            rec = mapOpenStatesPerson(data, stateId, ref, active);
          } catch (err) {
            report.problem('people', file, err);
            continue;
          }
          await writer.run('people', file, async (_db, w) =>
            queuePerson(w, rec, (id) => byOcd.set(rec.ids.openstates!, id)),
          );
        }
      }
      // Committees look their members up among the people just queued: write those first.
      await writer.commit();
      // Congress placeholders (a Senate vote's LIS id) of members whose full record just arrived: merged into it.
      if (stateId === stateIdOf('US')) {
        const folded = await withTransaction(pool, foldPlaceholders);
        if (folded) report.count('placeholders merged', 'updated', folded);
      }
      report.expect(committeeFiles.length);
      if (!stateId) {
        for (const _ of committeeFiles) {
          report.tick();
          report.skip('committees', `jurisdiction ${st} is not covered`);
        }
        continue;
      }
      // A subcommittee is written after its parent, so its parent_id is set by the first import:
      // files come in name order, which often puts a subcommittee before its parent.
      const deferred: { file: string; c: OpenStatesCommittee }[] = [];
      for await (const { file, data, error } of parsers.files(committeeParser, committeeFiles)) {
        report.tick();
        let c: OpenStatesCommittee;
        try {
          if (!data) throw error;
          c = data;
          if (!String(c.id ?? '').startsWith('ocd-organization/')) throw new RecordError('missing or invalid id', 'id');
          if (!c.name) throw new RecordError('missing name', 'name');
        } catch (err) {
          report.problem('committees', file, err);
          continue;
        }
        if (c.parent) deferred.push({ file, c });
        else await writeCommittee(file, c, stateId);
      }
      for (let rest = deferred; rest.length;) {
        const waiting = new Set(rest.map((d) => String(d.c.id)));
        const ready = rest.filter((d) => !waiting.has(String(d.c.parent)));
        // Parents that never come (or a cycle): the rest are written as they are.
        const round = ready.length ? ready : rest;
        rest = ready.length ? rest.filter((d) => waiting.has(String(d.c.parent))) : [];
        for (const d of round) await writeCommittee(d.file, d.c, stateId);
      }
    }
    await writer.commit();
  } finally {
    await parsers.close();
    await writer.close();
    report.finish();
  }
  return report;
}
