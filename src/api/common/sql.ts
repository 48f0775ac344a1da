// SQL fragments shared by the repositories.

/** A timestamptz column rendered as ISO 8601 UTC with milliseconds (the JSON form of every timestamp). */
export const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A person's party as people know it, over `people p LEFT JOIN parties pa`: the catalogue's name for
 * the parties it lists, the published name for any other ("Forward", "Partido Nuevo Progresista"),
 * and "Unknown" only when no party was published.
 */
export const PARTY_NAME = `CASE WHEN p.party_id = 0 AND p.party_name <> '' THEN p.party_name ELSE coalesce(pa.party_name, p.party_name) END`;

/** Escapes LIKE wildcards so user text matches literally inside '%...%'. */
export const likeContains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/** Collects WHERE conditions with numbered parameters. */
export class Where {
  readonly params: unknown[] = [];
  readonly conds: string[] = [];
  /** Adds a parameter and returns its placeholder. */
  p(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(cond: string): void {
    this.conds.push(cond);
  }
  sql(): string {
    return this.conds.length ? `WHERE ${this.conds.join(' AND ')}` : '';
  }
}
