// Lock keeping for a job one process of the cluster runs at a time (the relay, the bulk builder):
// a PostgreSQL advisory lock held by a dedicated session. Standbys call tend() on a timer and
// take the lock when the holder's session ends; the holder calls it too, and a session that
// fails its check gives the lock up (PostgreSQL has released it, or will when the session dies),
// so two processes never both believe they hold it for longer than one tend interval.
import pg from 'pg';

export type TendResult = 'acquired' | 'held' | 'standby';

export interface SessionLockOptions {
  databaseUrl: string;
  key: number;
  /** application_name of the session, so operators can see who holds what */
  name: string;
  /** the session holding (or trying for) the lock went away; `held`: it held the lock */
  onDrop?: (why: string, held: boolean) => void;
}

export class SessionLock {
  private client: pg.Client | undefined;
  private holding = false;
  private backendPid: number | undefined;
  private tending: Promise<TendResult> | undefined;

  constructor(private readonly opts: SessionLockOptions) {}

  /** Whether this session holds the lock (as of the last tend or drop). */
  get held(): boolean {
    return this.holding;
  }

  /** The holding session's backend pid, for statements that check the lock is still theirs. */
  get pid(): number | undefined {
    return this.holding ? this.backendPid : undefined;
  }

  /**
   * Takes the lock when not held (opening the session as needed), or checks the session when held.
   * Concurrent calls share one round. A failure drops the session and rethrows.
   */
  tend(): Promise<TendResult> {
    this.tending ??= this.round().finally(() => {
      this.tending = undefined;
    });
    return this.tending;
  }

  private async round(): Promise<TendResult> {
    try {
      if (!this.client) {
        const c = new pg.Client({ connectionString: this.opts.databaseUrl, application_name: this.opts.name });
        c.on('error', () => {
          if (this.client === c) this.drop('lock session error');
        });
        c.on('end', () => {
          if (this.client === c) this.drop('lock session ended');
        });
        this.client = c;
        await c.connect();
      }
      const c = this.client;
      if (this.holding) {
        await c.query('SELECT 1');
        return 'held';
      }
      const { rows } = await c.query<{ ok: boolean; pid: number }>(
        'SELECT pg_try_advisory_lock($1) AS ok, pg_backend_pid() AS pid',
        [this.opts.key],
      );
      if (!rows[0]!.ok) return 'standby';
      this.backendPid = rows[0]!.pid;
      this.holding = true;
      return 'acquired';
    } catch (err) {
      this.drop('lock session failed');
      throw err;
    }
  }

  /** Gives the lock up by ending the session (the holder learnt it no longer holds it, or is stopping). */
  drop(why: string): void {
    const held = this.holding;
    this.holding = false;
    this.backendPid = undefined;
    const c = this.client;
    this.client = undefined;
    c?.end().catch(() => undefined);
    this.opts.onDrop?.(why, held);
  }

  /** Ends the session and waits for it; the lock is free for a standby when this resolves. */
  async release(): Promise<void> {
    await this.tending?.catch(() => undefined);
    this.holding = false;
    this.backendPid = undefined;
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }
}
