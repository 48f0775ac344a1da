// Building blocks for response schemas. Nullable fields are declared as such so they serialise as
// null instead of disappearing; timestamps are formatted by SQL (see sql.ts) and travel as strings.
import { Type, type TSchema } from 'typebox';
import { errorResponses } from '../../http/schemas.js';

export const Nullable = <T extends TSchema>(t: T, description?: string) => Type.Union([t, Type.Null()], description ? { description } : {});
export const Int = () => Type.Integer();
export const Str = () => Type.String();
export const DateStr = () => Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const Timestamp = () => Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });
export const Json = (description: string) => Type.Unknown({ description });

/** `{ data: [row] }` */
export const ListOf = <T extends TSchema>(row: T) => Type.Object({ data: Type.Array(row) });
/** `{ data: row }` */
export const One = <T extends TSchema>(row: T) => Type.Object({ data: row });

/** Response map: 200 plus the error envelope for each status the route can answer. */
// 422 query_timeout: every read runs on the read pool, whose statements PostgreSQL cancels after
// READ_STATEMENT_TIMEOUT_MS.
export const responses = <T extends TSchema>(ok: T, ...errors: number[]) => ({ 200: ok, ...errorResponses(401, 422, 429, 500, ...errors) });
