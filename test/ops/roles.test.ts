// Every role answers its Kubernetes probes and scrape: for each Deployment in deploy/k8s, an
// `lds serve --role <role>` process of the built code is started, and the paths of its readiness
// probe, liveness probe and Prometheus annotation are called on the port it listens on. Roles that
// serve no API (relay, dispatcher, worker) used to listen on nothing at all.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROLES } from '../../src/config.js';
import { ensureBuilt, root } from '../helpers/build.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';

interface Probes {
  /** the --role argument, e.g. relay,bulk */
  role: string;
  ready: string;
  live: string;
  metrics: string;
}

/** The probe and scrape paths of each role's Deployment. */
function manifestProbes(): Probes[] {
  const dir = path.join(root, 'deploy/k8s');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) =>
      YAML.parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))
        .map((d) => d.toJS())
        .filter((d) => d?.kind === 'Deployment')
        .map((d) => {
          const c = d.spec.template.spec.containers[0];
          return {
            role: c.args[2] as string,
            ready: c.readinessProbe.httpGet.path,
            live: c.livenessProbe.httpGet.path,
            metrics: d.spec.template.metadata.annotations['prometheus.io/path'],
          };
        }),
    );
}

interface Proc {
  role: string;
  child: ChildProcess;
  output: string;
  url?: string;
}

describe('each role serves its probes and metrics', () => {
  let db: TestDatabase;
  const procs: Proc[] = [];
  const probes = manifestProbes();

  beforeAll(async () => {
    ensureBuilt();
    db = await freshDatabase();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
            p.child.once('exit', () => resolve());
            p.child.kill('SIGTERM');
          }),
      ),
    );
    await db?.drop();
  });

  function start(role: string): Proc {
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      NATS_NAMESPACE: db.name,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
    };
    const child = spawn(process.execPath, [path.join(root, 'bin/lds.js'), 'serve', '--role', role], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const p: Proc = { role, child, output: '' };
    const onData = (c: Buffer) => {
      p.output += c.toString();
      p.url ??= /listening on (http:\/\/\S+)/.exec(p.output)?.[1]?.replace('localhost', '127.0.0.1');
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    procs.push(p);
    return p;
  }

  it('covers every role', () => {
    expect(probes.flatMap((p) => p.role.split(',')).sort()).toEqual([...ROLES].sort());
  });

  it('answers the readiness and liveness probes and the scrape of its Deployment', async () => {
    const started = probes.map((p) => ({ probes: p, proc: start(p.role) }));
    for (const { probes: pr, proc } of started) {
      await waitFor(`${pr.role} to listen`, () => proc.url !== undefined || proc.child.exitCode !== null, 90_000).catch(
        (err: Error) => {
          throw new Error(`${err.message}: ${proc.output.slice(-800)}`);
        },
      );
      expect(proc.url, `${pr.role} listens on nothing: ${proc.output.slice(-800)}`).toBeDefined();

      const live = await fetch(`${proc.url}${pr.live}`);
      expect(live.status, `${pr.role} ${pr.live}`).toBe(200);
      await waitFor(
        `${pr.role} to be ready`,
        async () => (await fetch(`${proc.url}${pr.ready}`)).status === 200,
        30_000,
      );
      const ready = (await (await fetch(`${proc.url}${pr.ready}`)).json()) as {
        roles: string[];
        checks: { database: boolean; redis: boolean | null; relay: boolean | null };
      };
      const roles = pr.role.split(',');
      expect(ready.roles).toEqual(roles);
      expect(ready.checks.database).toBe(true);
      // only api and stream count requests, so only they depend on Redis
      if (!roles.includes('api') && !roles.includes('stream')) expect(ready.checks.redis).toBeNull();
      // the only relay here is the active one, and it publishes
      expect(ready.checks.relay).toBe(roles.includes('relay') ? true : null);

      const metrics = await fetch(`${proc.url}${pr.metrics}`);
      expect(metrics.status, `${pr.role} ${pr.metrics}`).toBe(200);
      const text = await metrics.text();
      expect(text).toMatch(/^lds_process_process_cpu_seconds_total /m);
      expect(text).toMatch(/^lds_relay_unpublished_changes /m);
      if (roles.includes('relay')) expect(text).toMatch(/^lds_relay_publish_failing 0$/m);
    }
    // a process without the API routes answers them with the envelope, not with data
    const relay = started.find((s) => s.probes.role.split(',').includes('relay'))!.proc;
    const res = await fetch(`${relay.url}/v1/bills`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  }, 180_000);
});
