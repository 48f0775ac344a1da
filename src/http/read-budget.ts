// What one request may take of the read pool. Every read it runs through here is cancelled in
// PostgreSQL when the client hangs up; an expensive read (full-text search, substring filters, deep
// offsets: up to READ_STATEMENT_TIMEOUT_MS each) also passes its key's gate (expensive-reads.ts):
// one of its EXPENSIVE_READS_PER_KEY slots and its time budget, shared by every replica through
// Redis. The burst limit counts
// requests, not their cost: without the slots ten 5-second searches a second from one key would
// hold every connection, and every other tenant would queue behind them. The slots bound one key;
// the expensive pool bounds all keys together.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cancellable } from '../db/cancel.js';
import type { Queryable } from '../db/pool.js';
import { ApiError } from './errors.js';
import type { ExpensiveReadGate } from './expensive-reads.js';

/** Requests whose reads were stopped because their client hung up (see clientLeft). */
const abandoned = new WeakSet<FastifyRequest>();

/** Aborts when the client hangs up before its response is complete. */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    abandoned.add(reply.request);
    ac.abort();
  });
  return ac.signal;
}

/**
 * Whether `err` is what stopping this request's read raised because its client hung up: the
 * AbortError of a read that had not started (it waited for a connection), or PostgreSQL's 57014
 * for the statement cancelled on its behalf. Not the service's failure: nobody is left to answer.
 */
export function clientLeft(req: FastifyRequest, err: unknown): boolean {
  if (!abandoned.has(req)) return false;
  const { name, code } = err as { name?: unknown; code?: unknown };
  return name === 'AbortError' || code === '57014';
}

/**
 * Runs `fn` with a read connection source cancelled on disconnect. An expensive read first passes
 * its key's gate (expensive-reads.ts): 429 read_budget_exceeded while the key is in debt (it takes
 * no slot then), 429 concurrency_limit_exceeded when every slot of the key is taken; when it is
 * over, its slot is freed and its statements' time charged to the key.
 */
export async function budgetedRead<T>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  expensive: boolean,
  fn: (db: Queryable) => Promise<T>,
): Promise<T> {
  const keyId = expensive ? req.apiKey?.api_key_id : undefined;
  const admission = keyId !== undefined && app.expensiveReads ? await app.expensiveReads.admit(keyId) : undefined;
  if (admission && !admission.ok) {
    if ('busy' in admission) {
      const limit = app.config.expensiveReadsPerKey;
      throw new ApiError(
        'concurrency_limit_exceeded',
        `This key already runs ${limit} expensive reads (text search, deep offset) at once; retry after 1 second.`,
        { limit },
        { 'Retry-After': 1 },
      );
    }
    const seconds = Math.ceil(admission.waitMs / 1000);
    throw new ApiError(
      'read_budget_exceeded',
      `This key's expensive reads (text search, deep offset) used their share of time, ${app.config.expensiveReadMsPerSec} ms a second; retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { ms_per_sec: app.config.expensiveReadMsPerSec },
      { 'Retry-After': seconds },
    );
  }
  const spent = { ms: 0 };
  try {
    // On their own pool (EXPENSIVE_READ_POOL_SIZE): when every key's slot is busy, the expensive
    // reads queue there, and a cheap read still finds a free connection in the read pool.
    return await fn(cancellable(expensive ? app.dbExpensive : app.dbRead, disconnectSignal(reply), spent));
  } finally {
    // what its statements ran, whatever the answer (a timeout or a hang-up cost the database too)
    admission?.end(spent.ms);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the gate of expensive reads per key (Redis when REDIS_URL is set, this process otherwise); undefined when off */
    expensiveReads: ExpensiveReadGate | undefined;
  }
}
