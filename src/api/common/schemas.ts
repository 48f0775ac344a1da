// Building blocks for response schemas. Nullable fields are declared as such so they serialise as
// null instead of disappearing; timestamps are formatted by SQL (see sql.ts) and travel as strings.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { errorResponses } from '../../http/schemas.js';

/**
 * A value or null. A scalar is declared with a type list (`type: ['string', 'null']`, JSON Schema
 * 2020-12 as OpenAPI 3.1 reads it), which the response serializer writes with a null check; an
 * `anyOf` of the two would run a schema validator on every value of every row to pick the branch.
 */
export function Nullable<T extends TSchema>(t: T, description?: string): TUnsafe<Static<T> | null> {
  const type = (t as { type?: unknown }).type;
  if (typeof type === 'string' && SCALARS.has(type))
    return Type.Unsafe<Static<T> | null>({ ...t, type: [type, 'null'], ...(description ? { description } : {}) });
  return Type.Unsafe<Static<T> | null>(Type.Union([t, Type.Null()], description ? { description } : {}));
}
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);
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
export const responses = <T extends TSchema>(ok: T, ...errors: number[]) => ({
  200: ok,
  ...errorResponses(401, 422, 429, 500, ...errors),
});
