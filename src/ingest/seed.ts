// Demo corpus generator (`lds seed`).
import type { Pool } from '../db/pool.js';

export interface SeedOptions {
  /** number of bills to generate */
  bills?: number;
  /** PRNG seed; same seed, same rows */
  seed?: number;
  progress?: boolean;
  log?: (msg: string) => void;
}

export interface SeedResult {
  counts: Record<string, number>;
}

export async function seed(_db: Pool, _opts: SeedOptions = {}): Promise<SeedResult> {
  return { counts: {} };
}
