// What an import tells its operator: per-entity counts (inserted, updated, unchanged, skipped,
// errors), each problem with its file and field, and progress while it runs: a cli-progress bar
// on a terminal, plain periodic lines on stderr otherwise (logs, CI).
import cliProgress from 'cli-progress';
import { RecordError } from '../read/record-error.js';

export { RecordError };

export type Outcome = 'inserted' | 'updated' | 'unchanged' | 'skipped' | 'errors';
export interface Counts {
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: number;
}
export interface Problem {
  file: string;
  field?: string;
  message: string;
}

/** A record that is fine but cannot be used here (e.g. its bill is not in the dataset): skipped, not failed. */
export class SkipRecord extends Error {}

export interface ReportOptions {
  /** show a bar (TTY) or plain lines; false for tests and library use */
  progress?: boolean;
  tty?: boolean;
  write?: (line: string) => void;
  /** plain-line interval in ms */
  intervalMs?: number;
}

export class ImportReport {
  readonly counts = new Map<string, Counts>();
  readonly problems: Problem[] = [];
  readonly skippedReasons = new Map<string, number>();
  /** wall seconds per phase of the import (e.g. one per LegiScan folder), for benchmarks */
  readonly phases = new Map<string, number>();
  private done = 0;
  private total = 0;
  private readonly started = Date.now();
  private bar?: cliProgress.SingleBar;
  private timer?: NodeJS.Timeout;
  private readonly write: (line: string) => void;

  constructor(
    readonly kind: string,
    private readonly opts: ReportOptions = {},
  ) {
    this.write = opts.write ?? ((l) => process.stderr.write(l + '\n'));
  }

  count(entity: string, outcome: Outcome, n = 1): void {
    let c = this.counts.get(entity);
    if (!c) this.counts.set(entity, (c = { inserted: 0, updated: 0, unchanged: 0, skipped: 0, errors: 0 }));
    c[outcome] += n;
  }

  skip(entity: string, reason: string): void {
    this.count(entity, 'skipped');
    this.skippedReasons.set(`${entity}: ${reason}`, (this.skippedReasons.get(`${entity}: ${reason}`) ?? 0) + 1);
  }

  problem(entity: string, file: string, err: unknown): void {
    if (err instanceof SkipRecord) return this.skip(entity, err.message);
    this.count(entity, 'errors');
    const field = err instanceof RecordError ? err.field : undefined;
    this.problems.push({ file, field, message: (err as Error).message ?? String(err) });
    if (this.opts.progress) this.log(`error: ${file}${field ? ` (field ${field})` : ''}: ${(err as Error).message}`);
  }

  get failed(): boolean {
    return this.problems.length > 0;
  }

  get(entity: string): Counts {
    return this.counts.get(entity) ?? { inserted: 0, updated: 0, unchanged: 0, skipped: 0, errors: 0 };
  }

  /** Starts (or extends) the progress display with more expected work. */
  expect(n: number): void {
    this.total += n;
    if (!this.opts.progress) return;
    if (this.opts.tty ?? process.stderr.isTTY) {
      if (!this.bar) {
        this.bar = new cliProgress.SingleBar(
          {
            format: `${this.kind} [{bar}] {value}/{total} files | {rate}/s | {eta_formatted} left`,
            stream: process.stderr,
            hideCursor: true,
            etaBuffer: 200,
          },
          cliProgress.Presets.shades_classic,
        );
        this.bar.start(this.total, this.done, { rate: '0' });
      } else {
        this.bar.setTotal(this.total);
      }
    } else if (!this.timer) {
      this.timer = setInterval(() => this.log(this.line()), this.opts.intervalMs ?? 2000);
      this.timer.unref();
    }
  }

  tick(n = 1): void {
    this.done += n;
    this.bar?.update(this.done, { rate: this.rate().toFixed(0) });
  }

  private rate(): number {
    return this.done / Math.max(0.001, (Date.now() - this.started) / 1000);
  }

  private line(): string {
    return `${this.kind}: ${this.done}/${this.total || '?'} files, ${this.rate().toFixed(0)}/s`;
  }

  private log(line: string): void {
    if (this.bar) {
      this.bar.stop();
      this.write(line);
      this.bar.start(this.total, this.done, { rate: this.rate().toFixed(0) });
    } else {
      this.write(line);
    }
  }

  finish(): void {
    this.bar?.stop();
    this.bar = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Adds the wall time since `since` (performance.now()) to a phase. */
  phase(name: string, since: number): void {
    this.phases.set(name, (this.phases.get(name) ?? 0) + (performance.now() - since) / 1000);
  }

  elapsedSeconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  /** The end-of-run summary table. */
  summary(): string {
    const rows = [...this.counts.entries()];
    const lines = [`${this.kind}: ${this.done} files in ${this.elapsedSeconds().toFixed(1)} s`];
    lines.push(
      `  ${'entity'.padEnd(16)}${['inserted', 'updated', 'unchanged', 'skipped', 'errors'].map((h) => h.padStart(11)).join('')}`,
    );
    for (const [entity, c] of rows) {
      lines.push(
        `  ${entity.padEnd(16)}${[c.inserted, c.updated, c.unchanged, c.skipped, c.errors].map((v) => String(v).padStart(11)).join('')}`,
      );
    }
    for (const [reason, n] of this.skippedReasons) lines.push(`  skipped ${n}× ${reason}`);
    for (const p of this.problems.slice(0, 50))
      lines.push(`  error: ${p.file}${p.field ? ` (field ${p.field})` : ''}: ${p.message}`);
    if (this.problems.length > 50) lines.push(`  … and ${this.problems.length - 50} more errors`);
    return lines.join('\n');
  }
}
