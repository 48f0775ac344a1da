// `lds serve`: the service in this process, with the roles asked for.
import type { Command } from 'commander';
import { ROLES, type Config, type Role } from '../config.js';
import { createLogger } from '../logger.js';
import { handleSignals, startServer } from '../server.js';
import { fail, loadConfigOrExit, positiveInt } from './database.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'Start the service (HTTP API, stream, relay, webhook dispatcher and workers). Uses the embedded PostgreSQL unless DATABASE_URL is set.',
    )
    .option('--role <roles>', `comma-separated roles to run in this process: ${ROLES.join(', ')} (default: all)`)
    .option('--port <port>', 'HTTP port (overrides PORT)', positiveInt('--port'))
    .option('--demo', 'seed the demo corpus on an empty database and print a ready demo API key')
    .action(async (opts: { role?: string; port?: number; demo?: boolean }) => {
      const overrides: Partial<Config> = {};
      if (opts.role) {
        const roles = opts.role
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean);
        const bad = roles.find((r) => !(ROLES as readonly string[]).includes(r));
        if (bad || roles.length === 0)
          fail(new Error(`--role accepts a comma-separated list of ${ROLES.join(', ')}; got "${opts.role}"`));
        overrides.roles = roles as Role[];
      }
      if (opts.port !== undefined) overrides.port = opts.port;
      const config = loadConfigOrExit(overrides);
      if (opts.port !== undefined && !process.env.PUBLIC_BASE_URL)
        config.publicBaseUrl = config.publicBaseUrl.replace(/:\d+$/, `:${opts.port}`);
      const log = createLogger(config.logLevel);
      try {
        const server = await startServer(config, log, { demo: opts.demo });
        handleSignals(server, log);
        const shown = server.url.replace('0.0.0.0', 'localhost').replace('127.0.0.1', 'localhost');
        if (!config.roles.includes('api') && !config.roles.includes('stream')) {
          // background roles only: the port answers probes and scrapes
          process.stdout.write(`\nLegislative Data Service (${config.roles.join(', ')}) listening on ${shown}\n`);
          process.stdout.write(
            `  health: ${shown}/v1/health    readiness: ${shown}/v1/ready    metrics: ${shown}/metrics\n\n`,
          );
        } else {
          process.stdout.write(`\nLegislative Data Service listening on ${shown}\n`);
          process.stdout.write(`  API reference: ${shown}/docs    dashboard: ${shown}/dashboard\n`);
          if (server.demoKey) {
            process.stdout.write(`  demo API key:  ${server.demoKey}\n`);
            process.stdout.write(
              `  try:           curl -H 'X-API-Key: ${server.demoKey}' '${shown}/v1/bills?state=CA&limit=5'\n`,
            );
          }
          process.stdout.write('\n');
        }
      } catch (err) {
        log.error({ err }, 'failed to start');
        fail(err);
      }
    });
}
