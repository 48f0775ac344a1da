// GET /v1/bulk (the downloads) and GET /v1/bulk/{file} (one download: ETag, If-None-Match,
// Range and If-Range, streamed from PostgreSQL a few chunks at a time; one request however large).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, notFound } from '../http/errors.js';
import { errorResponses } from '../http/schemas.js';
import { currentFiles, readRange, type StoredFile } from './store.js';
import { GLOBAL_SCOPE } from './build.js';

const SUFFIX = '.ndjson.gz';
const ALL = 'all';

const Entry = Type.Object({
  name: Type.String({ description: `file name: <scope>${SUFFIX}` }),
  scope: Type.String({ description: `a jurisdiction code, ${GLOBAL_SCOPE} (nationwide records: topics) or ${ALL} (everything: every jurisdiction and the nationwide records)` }),
  url: Type.String({ description: 'where to download it (needs the API key; counts as one request)' }),
  content_type: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  counts: Type.Record(Type.String(), Type.Integer(), { description: 'records per resource' }),
  generated_at: Type.String({ description: 'when the snapshot the file equals was taken (ISO 8601, UTC)' }),
  cursor: Type.String({ description: 'change-feed position of that snapshot: GET /v1/changes?since=<cursor> returns exactly the changes the file does not hold' }),
  etag: Type.String(),
});

interface Download {
  entry: {
    name: string; scope: string; url: string; content_type: string; size: number; counts: Record<string, number>;
    generated_at: string; cursor: string; etag: string;
  };
  members: StoredFile[];
}

/** The downloads: `all` first (the concatenation of every member), then each member by scope. */
function downloads(files: StoredFile[], baseUrl: string): Download[] {
  const make = (scope: string, members: StoredFile[]): Download => {
    const counts: Record<string, number> = {};
    for (const m of members) for (const [k, v] of Object.entries(m.counts)) counts[k] = (counts[k] ?? 0) + v;
    const etag = `"${createHash('sha1').update(members.map((m) => m.file_id).join(',')).digest('base64url')}"`;
    return {
      entry: {
        name: scope + SUFFIX, scope, url: `${baseUrl}/v1/bulk/${scope}${SUFFIX}`, content_type: 'application/gzip',
        size: members.reduce((n, m) => n + m.size, 0), counts, generated_at: members[0].generated_at, cursor: members[0].feed_cursor, etag,
      },
      members,
    };
  };
  if (files.length === 0) return [];
  // the nationwide member last in `all`, so a reader meets the jurisdictions in code order first
  const ordered = [...files.filter((f) => f.scope !== GLOBAL_SCOPE), ...files.filter((f) => f.scope === GLOBAL_SCOPE)];
  return [make(ALL, ordered), ...files.map((f) => make(f.scope, [f]))];
}

/** One `bytes=` range (inclusive bounds) within size; undefined to serve the whole file; 'unsatisfiable'. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // several ranges, or another unit: served whole (RFC 9110 lets a server ignore Range)
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export const bulkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/bulk', {
    schema: {
      operationId: 'listBulkFiles',
      summary: 'Bulk downloads: everything, or one jurisdiction',
      description: `Gzip-compressed newline-delimited JSON, one record per line: {"type": ..., "data": ...}, where data is exactly what the API returns ` +
        '(bill: GET /v1/bills/{bill_id}?include=all; roll_call: GET /v1/votes/{roll_call_id} with member_votes = its /details rows; ' +
        'committee: a GET /v1/committees row with members = its /members rows; legislator, session, hearing, subject, candidate, topic: rows of their lists). ' +
        'Every file of the listing equals one snapshot of the database, whose change-feed position is `cursor`: load a file, then follow ' +
        'GET /v1/changes?since=<cursor> (re-fetching changed bills with include=all) and nothing is missed or seen twice. ' +
        `Files are rebuilt in the background at most every BULK_INTERVAL, only for jurisdictions that changed. Empty until the first build.`,
      tags: ['Bulk'],
      response: { 200: Type.Object({ data: Type.Array(Entry) }), ...errorResponses(401, 429, 500) },
    },
  }, async () => {
    return { data: downloads(await currentFiles(app.dbRead), app.config.publicBaseUrl).map((d) => d.entry) };
  });

  app.get('/v1/bulk/:file', {
    schema: {
      operationId: 'getBulkFile',
      summary: 'Download a bulk file',
      description: 'Streams the file (application/gzip). ETag with If-None-Match (304); Range: bytes=a-b (one range) with If-Range resumes a ' +
        'broken download (206; 416 when the range starts past the end); several ranges are answered with the whole file. One request, counted once.',
      tags: ['Bulk'],
      params: Type.Object({ file: Type.String({ description: `<scope>${SUFFIX}, as listed by GET /v1/bulk` }) }),
      response: {
        200: Type.Unsafe({ type: 'string', format: 'binary', description: 'gzip-compressed NDJSON' }),
        206: Type.Unsafe({ type: 'string', format: 'binary', description: 'the requested byte range' }),
        304: Type.Null({ description: 'not modified (If-None-Match)' }),
        ...errorResponses(401, 404, 416, 429, 500),
      },
    },
  }, async (req, reply) => {
    const name = req.params.file;
    const found = downloads(await currentFiles(app.dbRead), app.config.publicBaseUrl).find((d) => d.entry.name === name);
    if (!found) throw notFound(`No bulk file named '${name.slice(0, 60)}'; GET /v1/bulk lists them.`);
    const { entry, members } = found;
    reply.header('ETag', entry.etag).header('Accept-Ranges', 'bytes').header('Cache-Control', 'private, no-cache')
      .header('X-Bulk-Cursor', entry.cursor);
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === entry.etag)) return reply.code(304).send(null);
    const ifRange = req.headers['if-range'] as string | undefined;
    const range = ifRange && ifRange.trim() !== entry.etag ? undefined : parseRange(req.headers.range, entry.size);
    if (range === 'unsatisfiable') {
      throw new ApiError('range_not_satisfiable', `The range is outside the file (${entry.size} bytes).`, {}, { 'Content-Range': `bytes */${entry.size}` });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? entry.size - 1;
    reply.type('application/gzip').header('Content-Disposition', `attachment; filename="${entry.name}"`).header('Content-Length', end - start + 1);
    if (range) reply.code(206).header('Content-Range', `bytes ${start}-${end}/${entry.size}`);
    if (req.method === 'HEAD' || entry.size === 0) return reply.send('');
    return reply.send(Readable.from(readRange(app.dbRead, members, start, end)));
  });
};
