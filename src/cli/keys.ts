// `lds keys create|list|revoke`: API key provisioning.
import type { Command } from 'commander';
import { createKey, listKeys, revokeKey, TIER_CAPS } from '../keys/store.js';
import { fail, positiveInt, withDatabase } from './database.js';

export function registerKeyCommands(program: Command): void {
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
      if (!TIER_CAPS[opts.tier] && opts.monthlyCap === undefined)
        fail(new Error(`unknown tier "${opts.tier}": use ${Object.keys(TIER_CAPS).join(', ')} or give --monthly-cap`));
      await withDatabase(async (db, config) => {
        const k = await createKey(
          db.pool,
          { org: opts.org, tier: opts.tier, monthlyCap: opts.monthlyCap, burst: opts.burst },
          config.defaultBurst,
        );
        if (opts.json) {
          process.stdout.write(
            JSON.stringify({
              api_key: k.api_key,
              api_key_id: k.api_key_id,
              org_name: k.org_name,
              tier: k.tier,
              monthly_cap: k.monthly_cap,
              burst_limit: k.burst_limit,
              created_at: k.created_at,
            }) + '\n',
          );
        } else {
          process.stdout.write(
            `api_key_id: ${k.api_key_id}\norg:        ${k.org_name}\ntier:       ${k.tier} (${k.monthly_cap.toLocaleString('en-US')} requests/month, ${k.burst_limit}/s burst)\n\napi_key:    ${k.api_key}\n\nStore the key now: it is kept hashed and cannot be shown again.\n`,
          );
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
          process.stdout.write(
            `${k.api_key_id}  ${k.key_prefix}…  ${k.org_name.padEnd(20)} ${k.tier.padEnd(10)} cap ${String(k.monthly_cap).padStart(9)}  burst ${String(k.burst_limit).padStart(4)}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\n`,
          );
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
}
