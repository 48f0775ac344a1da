// The physical limit of a bulk build, in a process of its own: PostgreSQL's COPY (SELECT …) TO
// STDOUT of the rows a build writes (the same jurisdictions' bills with the columns the API shows,
// every part, roll calls with member votes, people, committees with members, sessions, hearings,
// subjects, candidates), piped through the same compressors at the same level as the build: gzip
// (the NDJSON file) and raw deflate (the CSV tables). `--one` pipes through gzip alone.
// `--files` instead: COPY of the stored bytes of the current bulk files (the limit of a download).
// Prints one JSON line: { ms, rows, text_bytes, gzip_bytes, deflate_bytes }.
import { pipeline } from 'node:stream/promises';
import { PassThrough, Writable } from 'node:stream';
import { createDeflateRaw, createGzip } from 'node:zlib';
import pg from 'pg';
import copy from 'pg-copy-streams';
import { backendCpu, ownCpu } from './cpu.mjs';

const [url, which, mode] = process.argv.slice(2);
const APP = 'lds-bench-bulk-copy';
const client = new pg.Client({ connectionString: url, application_name: APP });
await client.connect();

const counter = () => {
  const w = new Writable({
    write(chunk, _e, cb) {
      w.bytes += chunk.length;
      cb();
    },
  });
  w.bytes = 0;
  return w;
};

let states = '';
if (which !== 'all') {
  const ids = (
    await client.query('SELECT state_id FROM states WHERE state_abbr = ANY($1::text[])', [which.split(',')])
  ).rows.map((r) => r.state_id);
  states = `{${ids.join(',')}}`;
}
const inStates = (col) => (states ? `${col} = ANY('${states}'::int[])` : 'true');
const ofBills = (t, cols) => `SELECT ${cols} FROM ${t} t JOIN bills b USING (bill_id) WHERE ${inStates('b.state_id')}`;

const QUERIES = [
  `SELECT bill_id, state_id, session_id, bill_number, bill_type_id, body_id, current_body_id, status_id, status_date, title, description,
     state_url, updated, created, change_hash, content_hash, summary, last_action, completed, pending_committee_id FROM bills b WHERE ${inStates('b.state_id')}`,
  ofBills('bill_sponsors', 't.*'),
  ofBills('bill_history', 't.*'),
  ofBills(
    'bill_texts',
    't.text_id, t.bill_id, t.bill_text_type_id, t.text_date, t.mime_id, t.size_bytes, t.word_count, t.state_url',
  ),
  ofBills('bill_subjects', 't.*'),
  ofBills('amendments', 't.*'),
  ofBills('bill_referrals', 't.*'),
  ofBills('bill_calendar', 't.*'),
  ofBills('supplements', 't.*'),
  ofBills('bill_sasts', 't.*'),
  ofBills('bill_citations', 't.*'),
  ofBills('bill_analyses', 't.*'),
  ofBills(
    'text_changes',
    `t.bill_id, t.from_text_id, t.to_text_id, t.from_type_id, t.to_type_id, t.from_created, t.to_created, t.added_chars,
     t.removed_chars, t.added_lines, t.removed_lines, t.similarity, t.is_whitespace_only, t.changed_sections, t.highlights, t.diff_truncated, t.computed_at`,
  ),
  ofBills('roll_calls', 't.*'),
  `SELECT v.* FROM roll_call_votes v JOIN roll_calls r USING (roll_call_id) JOIN bills b ON b.bill_id = r.bill_id WHERE ${inStates('b.state_id')}`,
  `SELECT people_id, state_id, role_id, chamber, party_id, party_name, name, first_name, middle_name, last_name, suffix, nickname, district,
     ballotpedia, followthemoney_eid, votesmart_id, opensecrets_id, updated FROM people WHERE ${inStates('state_id')}`,
  `SELECT * FROM committees WHERE ${inStates('state_id')}`,
  `SELECT m.* FROM committee_members m JOIN committees c USING (committee_id) WHERE ${inStates('c.state_id')}`,
  `SELECT * FROM sessions WHERE ${inStates('state_id')}`,
  `SELECT * FROM hearings WHERE ${inStates('state_id')}`,
  `SELECT * FROM subjects WHERE ${inStates('state_id')}`,
  `SELECT c.* FROM candidates c JOIN states s ON s.state_abbr::text = c.state WHERE ${inStates('s.state_id')}`,
];

const started = process.hrtime.bigint();
const out = { rows: 0, text_bytes: 0, gzip_bytes: 0, deflate_bytes: 0 };
if (mode === '--files') {
  // the stored bytes of the current files (every format), in file and chunk order
  const text = counter();
  await pipeline(
    client.query(
      copy.to(`COPY (SELECT data FROM bulk_chunks c JOIN bulk_files f USING (file_id)
    WHERE f.status = 'current' ORDER BY c.file_id, c.n) TO STDOUT (FORMAT binary)`),
    ),
    text,
  );
  out.text_bytes = text.bytes;
} else {
  for (const q of QUERIES) {
    const text = counter();
    const gz = counter();
    const df = counter();
    const tee = new PassThrough();
    tee.on('data', (c) => {
      text.bytes += c.length;
    });
    const stream = client.query(copy.to(`COPY (${q}) TO STDOUT (FORMAT csv)`));
    const sinks = [pipeline(tee, createGzip(), gz)];
    if (mode !== '--one') {
      const second = new PassThrough();
      tee.pipe(second);
      sinks.push(pipeline(second, createDeflateRaw(), df));
    }
    await Promise.all([pipeline(stream, tee), ...sinks]);
    out.rows += stream.rowCount;
    out.text_bytes += text.bytes;
    out.gzip_bytes += gz.bytes;
    out.deflate_bytes += df.bytes;
  }
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = { node: ownCpu(), postgres: await backendCpu(client, APP) };
process.stdout.write(JSON.stringify({ ms, ...out, cpu }) + '\n');
await client.end();
