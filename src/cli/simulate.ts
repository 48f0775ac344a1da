// `lds simulate`: realistic legislative activity through the writer path, for demos and load.
import { InvalidArgumentError, type Command } from 'commander';
import { parseStates } from '../http/params.js';
import { simulate } from '../demo/simulate/run.js';
import { withDatabase } from './database.js';

function parseDuration(v: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
  if (!m) throw new InvalidArgumentError('--duration takes a number with a unit: 500ms, 30s, 5m, 1h');
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

function positive(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number`);
    return n;
  };
}

export function registerSimulateCommand(program: Command): void {
  program
    .command('simulate')
    .description(
      'Simulate legislative activity (new bills, referrals, votes, status moves, texts, amendments) on existing sessions, through the same writer path as imports, so the change feed and stream come alive. It rewrites the bills it touches, so it refuses states holding imported data unless --force.',
    )
    .option('--rate <n>', 'actions per second', positive('--rate'), 2)
    .option('--count <n>', 'stop after this many actions', positive('--count'))
    .option('--duration <d>', 'stop after this long (e.g. 30s, 5m)', parseDuration)
    .option('--states <csv>', 'only these states (e.g. CA,NY,TX)')
    .option('--force', 'run even where the chosen states hold imported (real) data: the simulator rewrites it')
    .action(async (opts: { rate: number; count?: number; duration?: number; states?: string; force?: boolean }) => {
      let states: string[] | undefined;
      try {
        states = parseStates(opts.states);
      } catch (err) {
        process.stderr.write(`lds: ${(err as Error).message.replace("Parameter 'states'", '--states')}\n`);
        process.exit(2);
      }
      const ac = new AbortController();
      process.once('SIGINT', () => ac.abort());
      process.once('SIGTERM', () => ac.abort());
      const result = await withDatabase((db) =>
        simulate(db.pool, {
          rate: opts.rate,
          count: opts.count,
          durationMs: opts.duration,
          states,
          force: opts.force === true,
          signal: ac.signal,
          onAction: (r, n) =>
            process.stdout.write(
              `${String(n).padStart(6)}  ${r.state}  ${r.bill_number.padEnd(8)} ${r.action.padEnd(9)} ${r.what}\n`,
            ),
        }),
      ).catch((err: Error) => {
        process.stderr.write(`lds: ${err.message}\n`);
        process.exit(1);
      });
      process.stdout.write(`simulated ${result.actions} actions, ${result.changes} changes\n`);
    });
}
