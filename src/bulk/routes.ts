// GET /v1/bulk (the downloads) and GET /v1/bulk/{file} (one download, NDJSON or CSV zip alike:
// ETag, If-None-Match, Range and If-Range, streamed from PostgreSQL a few chunks at a time; one
// request however large).
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, notFound } from '../http/errors.js';
import { errorResponses } from '../http/schemas.js';
import { currentFiles, currentSetKey, readRange } from './store.js';
import { GLOBAL_SCOPE } from './build.js';
import { TABLES } from './tables.js';
import { ALL, CSV_SUFFIX, findDownload, listDownloads, NDJSON_SUFFIX, type Listed } from './downloads.js';

const FileInfo = {
  url: Type.String({ description: 'where to download it (needs the API key; counts as one request)' }),
  content_type: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  etag: Type.String(),
};

const Entry = Type.Object({
  name: Type.String({ description: `file name: <scope>${NDJSON_SUFFIX}` }),
  scope: Type.String({
    description: `a jurisdiction code, ${GLOBAL_SCOPE} (nationwide records: topics) or ${ALL} (everything: every jurisdiction and the nationwide records)`,
  }),
  url: FileInfo.url,
  content_type: FileInfo.content_type,
  size: FileInfo.size,
  counts: Type.Record(Type.String(), Type.Integer(), { description: 'records per resource' }),
  generated_at: Type.String({ description: 'when the snapshot the file equals was taken (ISO 8601, UTC)' }),
  cursor: Type.String({
    description:
      'change-feed position of that snapshot: GET /v1/changes?since=<cursor> returns exactly the changes the file does not hold',
  }),
  etag: FileInfo.etag,
  csv: Type.Optional(
    Type.Object(
      {
        name: Type.String({ description: `<scope>${CSV_SUFFIX}` }),
        ...FileInfo,
        rows: Type.Record(Type.String(), Type.Integer(), {
          description: 'rows per CSV table (file name without .csv)',
        }),
      },
      {
        description:
          'the same snapshot (same generated_at and cursor) as CSV tables in a zip; absent only until the first build that makes them',
      },
    ),
  ),
});

/** One `bytes=` range (inclusive bounds) within size; undefined to serve the whole file; 'unsatisfiable'. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
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
  // the listing is made again only when a build published a new set
  let cached: { key: string; listed: Listed[] } | undefined;
  const listed = async () => {
    const key = await currentSetKey(app.dbRead);
    if (cached?.key !== key) cached = { key, listed: listDownloads(await currentFiles(app.dbRead)) };
    return cached.listed;
  };
  const url = (name: string) => `${app.config.publicBaseUrl}/v1/bulk/${name}`;

  app.get(
    '/v1/bulk',
    {
      schema: {
        operationId: 'listBulkFiles',
        summary: 'Bulk downloads: everything, or one jurisdiction',
        description:
          `Gzip-compressed newline-delimited JSON, one record per line: {"type": ..., "data": ...}, where data is exactly what the API returns ` +
          '(bill: GET /v1/bills/{bill_id}?include=all; roll_call: GET /v1/votes/{roll_call_id} with member_votes = its /details rows; ' +
          'committee: a GET /v1/committees row with members = its /members rows; legislator, session, hearing, subject, candidate, topic: rows of their lists). ' +
          `The same snapshot as CSV tables (\`csv\`: <scope>${CSV_SUFFIX}, a zip with one file per table, a header line first): ` +
          `${TABLES.map((t) => t.name).join(', ')} (a jurisdiction's zip holds all but topics, ${GLOBAL_SCOPE}'s only topics). ` +
          "Columns are the API's field names; bill_<part> tables are the include= parts keyed by bill_id (the votes part is roll_calls), " +
          'roll_call_votes the member votes keyed by roll_call_id, committee_members the members. A nested value without a table of its own is one ' +
          'JSON-encoded cell; strings are always quoted, so an empty string is "" and null an empty cell (as PostgreSQL COPY ... CSV HEADER reads them); ' +
          'booleans are true/false. ' +
          'Every file of the listing equals one snapshot of the database, whose change-feed position is `cursor`: load a file, then follow ' +
          'GET /v1/changes?since=<cursor> (re-fetching changed bills with include=all) and nothing is missed or seen twice. ' +
          `Files are rebuilt in the background at most every BULK_INTERVAL, rendering again only the blocks of bills (a session's, 2,000 at a time) that changed; ` +
          "records follow the blocks: a jurisdiction's sessions, legislators, committees, hearings, subjects and candidates, then its bills session by session, each batch followed by its roll calls. Empty until the first build.",
        tags: ['Bulk'],
        response: { 200: Type.Object({ data: Type.Array(Entry) }), ...errorResponses(401, 429, 500) },
      },
    },
    async () => {
      return {
        data: (await listed()).map(({ scope, ndjson: n, csv }) => ({
          name: n.name,
          scope,
          url: url(n.name),
          content_type: n.content_type,
          size: n.size,
          counts: n.counts,
          generated_at: n.generated_at,
          cursor: n.cursor,
          etag: n.etag,
          ...(csv && {
            csv: {
              name: csv.name,
              url: url(csv.name),
              content_type: csv.content_type,
              size: csv.size,
              etag: csv.etag,
              rows: csv.rows,
            },
          }),
        })),
      };
    },
  );

  app.get(
    '/v1/bulk/:file',
    {
      schema: {
        operationId: 'getBulkFile',
        summary: 'Download a bulk file',
        description:
          `Streams the file: <scope>${NDJSON_SUFFIX} (application/gzip) or <scope>${CSV_SUFFIX} (application/zip). ` +
          'ETag with If-None-Match (304); Range: bytes=a-b (one range) with If-Range resumes a ' +
          'broken download (206; 416 when the range starts past the end); several ranges are answered with the whole file. One request, counted once.',
        tags: ['Bulk'],
        params: Type.Object({
          file: Type.String({
            description: `<scope>${NDJSON_SUFFIX} or <scope>${CSV_SUFFIX}, as listed by GET /v1/bulk`,
          }),
        }),
        response: {
          200: Type.Unsafe({
            type: 'string',
            format: 'binary',
            description: 'gzip-compressed NDJSON, or a zip of CSV tables',
          }),
          206: Type.Unsafe({ type: 'string', format: 'binary', description: 'the requested byte range' }),
          304: Type.Null({ description: 'not modified (If-None-Match)' }),
          ...errorResponses(401, 404, 416, 429, 500),
        },
      },
    },
    async (req, reply) => {
      const name = req.params.file;
      const found = findDownload(await listed(), name);
      if (!found) throw notFound(`No bulk file named '${name.slice(0, 60)}'; GET /v1/bulk lists them.`);
      const { download: file, cursor } = found;
      reply
        .header('ETag', file.etag)
        .header('Accept-Ranges', 'bytes')
        .header('Cache-Control', 'private, no-cache')
        .header('X-Bulk-Cursor', cursor);
      const inm = req.headers['if-none-match'];
      if (inm && inm.split(',').some((t) => t.trim() === file.etag)) return reply.code(304).send(null);
      const ifRange = req.headers['if-range'] as string | undefined;
      const range = ifRange && ifRange.trim() !== file.etag ? undefined : parseRange(req.headers.range, file.size);
      if (range === 'unsatisfiable') {
        throw new ApiError(
          'range_not_satisfiable',
          `The range is outside the file (${file.size} bytes).`,
          {},
          { 'Content-Range': `bytes */${file.size}` },
        );
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? file.size - 1;
      reply
        .type(file.content_type)
        .header('Content-Disposition', `attachment; filename="${file.name}"`)
        .header('Content-Length', end - start + 1);
      if (range) reply.code(206).header('Content-Range', `bytes ${start}-${end}/${file.size}`);
      if (req.method === 'HEAD' || file.size === 0) return reply.send('');
      // bytes, not objects: the stream reads ahead 256 KiB, not 16 chunks
      const body = Readable.from(readRange(app.dbRead, file.pieces, start, end), {
        objectMode: false,
        highWaterMark: 256 * 1024,
      });
      return reply.send(body);
    },
  );
};
