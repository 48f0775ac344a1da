// The `lds` command. Each subcommand opens the database the same way the server does: it reuses a
// running embedded PostgreSQL (the one `lds serve` started) or starts one for the duration of the
// command.
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig, ROLES, settingsTable, type Config, type Role } from './config.js';
import { migrate } from './db/migrate.js';
import { openDatabase, type Database } from './db/open.js';
import { createKey, listKeys, revokeKey, TIER_CAPS } from './keys/store.js';
import { createLogger, type Logger } from './logger.js';
import { handleSignals, startServer } from './server.js';
import { seed } from './ingest/seed.js';
import { registerIngestCommands } from './ingest/cli.js';
import { registerSimulateCommand } from './ingest/simulate-cli.js';

const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
  return Number(v);
};

export function loadConfigOrExit(overrides: Partial<Config> = {}, env = process.env): Config {
  try {
    return loadConfig(env, overrides);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`lds: configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/** Logger for CLI commands: warnings only unless LOG_LEVEL says otherwise, on stderr. */
export function cliLogger(config: Config): Logger {
  const level = process.env.LOG_LEVEL ? config.logLevel : 'warn';
  return createLogger(level, { destination: 2 });
}

/** Runs fn with a migrated database, closing it (and any embedded cluster it started) after. */
export async function withDatabase<T>(fn: (db: Database, config: Config, log: Logger) => Promise<T>): Promise<T> {
  const config = loadConfigOrExit();
  const log = cliLogger(config);
  const db = await openDatabase(config, log, 'client', 4);
  try {
    await migrate(db.pool, log);
    return await fn(db, config, log);
  } finally {
    await db.close();
  }
}

function fail(err: unknown): never {
  process.stderr.write(`lds: ${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
}

export function buildCli(): Command {
  const program = new Command();
  program
    .name('lds')
    .description('Legislative Data Service: HTTP/JSON API over US legislative data with a realtime gateway.\nSettings come from the environment; run `lds config` to list them.')
    .showHelpAfterError();

  program
    .command('serve')
    .description('Start the service (HTTP API, stream, relay, webhook dispatcher and workers). Uses the embedded PostgreSQL unless DATABASE_URL is set.')
    .option('--role <roles>', `comma-separated roles to run in this process: ${ROLES.join(', ')} (default: all)`)
    .option('--port <port>', 'HTTP port (overrides PORT)', positiveInt('--port'))
    .option('--demo', 'seed the demo corpus on an empty database and print a ready demo API key')
    .action(async (opts: { role?: string; port?: number; demo?: boolean }) => {
      const overrides: Partial<Config> = {};
      if (opts.role) {
        const roles = opts.role.split(',').map((r) => r.trim()).filter(Boolean);
        const bad = roles.find((r) => !(ROLES as readonly string[]).includes(r));
        if (bad || roles.length === 0) fail(new Error(`--role accepts a comma-separated list of ${ROLES.join(', ')}; got "${opts.role}"`));
        overrides.roles = roles as Role[];
      }
      if (opts.port !== undefined) overrides.port = opts.port;
      const config = loadConfigOrExit(overrides);
      if (opts.port !== undefined && !process.env.PUBLIC_BASE_URL) config.publicBaseUrl = config.publicBaseUrl.replace(/:\d+$/, `:${opts.port}`);
      const log = createLogger(config.logLevel);
      try {
        const server = await startServer(config, log, { demo: opts.demo });
        handleSignals(server, log);
        if (server.url) {
          const shown = server.url.replace('0.0.0.0', 'localhost').replace('127.0.0.1', 'localhost');
          process.stdout.write(`\nLegislative Data Service listening on ${shown}\n`);
          process.stdout.write(`  API reference: ${shown}/docs    dashboard: ${shown}/dashboard\n`);
          if (server.demoKey) {
            process.stdout.write(`  demo API key:  ${server.demoKey}\n`);
            process.stdout.write(`  try:           curl -H 'X-API-Key: ${server.demoKey}' '${shown}/v1/bills?state=CA&limit=5'\n`);
          }
          process.stdout.write('\n');
        }
      } catch (err) {
        log.error({ err }, 'failed to start');
        fail(err);
      }
    });

  program
    .command('migrate')
    .description('Apply pending database migrations (also done at every start).')
    .action(async () => {
      await withDatabase(async (db, _config, log) => {
        const applied = await migrate(db.pool, log);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
      }).catch(fail);
    });

  program
    .command('seed')
    .description('Generate the deterministic demo corpus (all 52 jurisdictions, every resource). Replaces existing demo data.')
    .option('--scale <bills>', 'number of bills to generate (default 30000; up to 1000000 for benchmarks)', positiveInt('--scale'))
    .option('--seed <n>', 'PRNG seed: the same seed gives the same rows', positiveInt('--seed'), 1)
    .action(async (opts: { scale?: number; seed: number }) => {
      await withDatabase(async (db) => {
        const started = Date.now();
        const result = await seed(db.pool, { bills: opts.scale ?? 30_000, seed: opts.seed, progress: process.stderr.isTTY === true, log: (m) => process.stderr.write(m + '\n') });
        process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
        for (const [table, n] of Object.entries(result.counts)) process.stdout.write(`  ${table.padEnd(20)} ${n.toLocaleString('en-US')}\n`);
      }).catch(fail);
    });

  const keys = program.command('keys').description('Provision API keys (stored hashed; a key is shown once).');
  keys
    .command('create')
    .description('Issue a new API key and print it once.')
    .requiredOption('--org <name>', 'organisation the key belongs to')
    .option('--tier <tier>', `tier: ${Object.keys(TIER_CAPS).join(', ')} (sets the default monthly cap)`, 'standard')
    .option('--monthly-cap <n>', 'monthly request cap (overrides the tier default)', positiveInt('--monthly-cap'))
    .option('--burst <n>', 'requests per second (default DEFAULT_BURST_LIMIT)', positiveInt('--burst'))
    .option('--json', 'print one JSON object (api_key, api_key_id, org_name, tier, monthly_cap, burst_limit)')
    .action(async (opts: { org: string; tier: string; monthlyCap?: number; burst?: number; json?: boolean }) => {
      if (!TIER_CAPS[opts.tier] && opts.monthlyCap === undefined) fail(new Error(`unknown tier "${opts.tier}": use ${Object.keys(TIER_CAPS).join(', ')} or give --monthly-cap`));
      await withDatabase(async (db, config) => {
        const k = await createKey(db.pool, { org: opts.org, tier: opts.tier, monthlyCap: opts.monthlyCap, burst: opts.burst }, config.defaultBurst);
        if (opts.json) {
          process.stdout.write(JSON.stringify({ api_key: k.api_key, api_key_id: k.api_key_id, org_name: k.org_name, tier: k.tier, monthly_cap: k.monthly_cap, burst_limit: k.burst_limit, created_at: k.created_at }) + '\n');
        } else {
          process.stdout.write(`api_key_id: ${k.api_key_id}\norg:        ${k.org_name}\ntier:       ${k.tier} (${k.monthly_cap.toLocaleString('en-US')} requests/month, ${k.burst_limit}/s burst)\n\napi_key:    ${k.api_key}\n\nStore the key now: it is kept hashed and cannot be shown again.\n`);
        }
      }).catch(fail);
    });
  keys
    .command('list')
    .description('List keys (ids, orgs, tiers, state; never the keys themselves).')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withDatabase(async (db) => {
        const rows = await listKeys(db.pool);
        if (opts.json) return void process.stdout.write(JSON.stringify(rows) + '\n');
        if (rows.length === 0) return void process.stdout.write('no keys\n');
        for (const k of rows) {
          process.stdout.write(`${k.api_key_id}  ${k.key_prefix}…  ${k.org_name.padEnd(20)} ${k.tier.padEnd(10)} cap ${String(k.monthly_cap).padStart(9)}  burst ${String(k.burst_limit).padStart(4)}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\n`);
        }
      }).catch(fail);
    });
  keys
    .command('revoke')
    .description('Revoke a key by its id; requests with it get 401 revoked_api_key within seconds on every replica.')
    .argument('<api_key_id>', 'id shown by `keys create` or `keys list`')
    .action(async (id: string) => {
      await withDatabase(async (db) => {
        if (!(await revokeKey(db.pool, id))) fail(new Error(`no key with id ${id}`));
        process.stdout.write(`revoked ${id}\n`);
      }).catch(fail);
    });

  program
    .command('config')
    .description('List every setting (environment variable, default, accepted values) and check the current environment.')
    .action(() => {
      loadConfigOrExit();
      for (const s of settingsTable()) process.stdout.write(`${s.env.padEnd(26)} ${s.default.padEnd(14)} ${s.description} (${s.accepts})\n`);
    });

  registerIngestCommands(program);
  registerSimulateCommand(program);
  return program;
}

buildCli().parseAsync(process.argv).catch(fail);
