// limit/offset paging. An out-of-range limit is clamped, never rejected (spec, Errors rule 4);
// offsets beyond MAX_OFFSET are refused so deep paging goes through narrower filters instead.
import { Type } from 'typebox';
import { badRequest } from './errors.js';

export const MAX_OFFSET = 100_000;

/** Query schema of `limit`: any integer; clamp it with clampLimit. */
export const LimitParam = (def: number, max: number) =>
  Type.Optional(
    Type.Integer({
      description: `page size, default ${def}, at most ${max}; out-of-range values are clamped`,
      default: def,
    }),
  );

export const OffsetParam = Type.Optional(
  Type.Integer({ description: `rows to skip, default 0, at most ${MAX_OFFSET}`, default: 0 }),
);

export function clampLimit(raw: number | undefined, def: number, max: number): number {
  if (raw === undefined || !Number.isFinite(raw)) return def;
  return Math.min(Math.max(Math.trunc(raw), 1), max);
}

export function checkOffset(raw: number | undefined): number {
  const offset = Math.max(0, Math.trunc(raw ?? 0));
  if (offset > MAX_OFFSET) {
    throw badRequest(
      `offset may not exceed ${MAX_OFFSET.toLocaleString('en-US')}; narrow the query with filters (state, session_id, updated_since, ...) instead of paging deeper.`,
      'offset',
    );
  }
  return offset;
}

export const PaginationSchema = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  returned: Type.Integer(),
});

export function pagination(limit: number, offset: number, returned: number) {
  return { limit, offset, returned };
}
