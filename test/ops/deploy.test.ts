// The deployment examples cannot run here (no container engine); these checks keep them correct:
// every Kubernetes object is valid against the Kubernetes API's JSON schema (the schemas shipped
// in the kubernetes-models package, offline: the same check as kubeconform's default mode), every
// role is a real role, probes hit real endpoints on the port the process listens on, grace periods
// outlast the stream rotation, every Deployment has a PodDisruptionBudget, autoscalers target real
// Deployments, and every environment variable is one the service reads. test/ops/roles.test.ts
// starts each role's process and calls its probes and scrape path.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadConfig, ROLES, SETTINGS } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const k8sDir = path.join(root, 'deploy/k8s');
const knownEnv = new Set(Object.values(SETTINGS).map((s) => s.env));
const rotationSeconds = loadConfig({}).streamRotateMs / 1000;

type Doc = {
  apiVersion?: string;
  kind: string;
  metadata: { name: string };
  spec: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};

function k8sDocs(): Doc[] {
  return fs
    .readdirSync(k8sDir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) =>
      YAML.parseAllDocuments(fs.readFileSync(path.join(k8sDir, f), 'utf8')).map((d) => {
        expect(d.errors, f).toEqual([]);
        return d.toJS() as Doc;
      }),
    );
}

type Model = new (data: object) => { validate(): void };

/** The kubernetes-models class of an object (e.g. apps/v1 Deployment), whose validate() checks it against its schema. */
async function modelOf(doc: { apiVersion?: string; kind: string }): Promise<Model> {
  const mod = (await import(`kubernetes-models/${doc.apiVersion}/${doc.kind}`)) as Record<string, Model>;
  return mod[doc.kind];
}

/** The schema check's verdict on an object: undefined when valid, else the validator's message. */
async function schemaError(doc: Doc): Promise<string | undefined> {
  const { apiVersion, kind, ...rest } = doc;
  const Model = await modelOf({ apiVersion, kind });
  try {
    new Model(rest).validate();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('Kubernetes manifests', () => {
  const docs = k8sDocs();
  const deployments = docs.filter((d) => d.kind === 'Deployment');
  const configMap = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'lds-config')!;

  it('are valid against the Kubernetes API schemas', async () => {
    expect(docs.length).toBeGreaterThan(10);
    for (const d of docs) expect(await schemaError(d), `${d.kind} ${d.metadata.name}`).toBeUndefined();
  });

  it('the schema check rejects what Kubernetes would', async () => {
    const base = deployments[0];
    const broken = (edit: (c: any) => void) => {
      const copy = structuredClone(base);
      edit(copy);
      return copy;
    };
    expect(await schemaError(broken((d) => (d.spec.replicas = 'two')))).toMatch(/replicas/);
    expect(
      await schemaError(broken((d) => delete d.spec.template.spec.containers[0].readinessProbe.httpGet.port)),
    ).toMatch(/port/);
    expect(await schemaError(broken((d) => delete d.spec.selector))).toMatch(/selector/);
    expect(
      await schemaError(broken((d) => (d.spec.template.spec.containers[0].ports[0].containerPort = '8080'))),
    ).toMatch(/containerPort/);
  });

  it('probe and scrape the port every process listens on (PORT), by a declared container port', () => {
    const port = Number(configMap.data!.PORT);
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      const c = pod.containers[0];
      for (const probe of [c.readinessProbe, c.livenessProbe]) {
        const declared = c.ports.find((p: { name: string }) => p.name === probe.httpGet.port);
        expect(declared?.containerPort, `${d.metadata.name} probe port ${probe.httpGet.port}`).toBe(port);
      }
      const annotations = d.spec.template.metadata.annotations;
      expect(Number(annotations['prometheus.io/port']), d.metadata.name).toBe(port);
      expect(annotations['prometheus.io/path']).toBe('/metrics');
    }
  });

  it('have one Deployment per role, running that role', () => {
    const roles = deployments.map((d) => d.spec.template.spec.containers[0].args);
    expect(roles.map((a: string[]) => a.slice(0, 2))).toEqual(deployments.map(() => ['serve', '--role']));
    expect(roles.flatMap((a: string[]) => a[2].split(',')).sort()).toEqual([...ROLES].sort());
  });

  it('probe readiness and liveness on real endpoints and outlast the stream rotation on shutdown', () => {
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      const c = pod.containers[0];
      expect(c.readinessProbe.httpGet.path).toBe('/v1/ready');
      expect(c.livenessProbe.httpGet.path).toBe('/v1/health');
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(rotationSeconds * 1.1);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
    }
  });

  it('give every Deployment a PodDisruptionBudget with a matching selector', () => {
    for (const d of deployments) {
      const pdb = docs.find((x) => x.kind === 'PodDisruptionBudget' && x.metadata.name === d.metadata.name);
      expect(pdb, d.metadata.name).toBeDefined();
      expect(pdb!.spec.selector.matchLabels).toEqual(d.spec.selector.matchLabels);
      expect(pdb!.spec.minAvailable).toBeLessThan(d.spec.replicas);
    }
  });

  it('autoscale stream on connections and workers on queue depth, targeting real Deployments and real metrics', () => {
    const metricsSource = fs.readFileSync(path.join(root, 'src/metrics/registry.ts'), 'utf8');
    const hpas = docs.filter((d) => d.kind === 'HorizontalPodAutoscaler');
    for (const h of hpas) {
      expect(deployments.map((d) => d.metadata.name)).toContain(h.spec.scaleTargetRef.name);
      for (const m of h.spec.metrics) {
        const name = m.pods?.metric.name ?? m.external?.metric.name;
        if (name) expect(metricsSource).toContain(`'${name}'`);
      }
    }
    expect(hpas.map((h) => h.metadata.name).sort()).toEqual(['lds-api', 'lds-stream', 'lds-worker']);
  });

  it('only set environment variables the service reads', () => {
    for (const d of docs.filter((x) => x.kind === 'ConfigMap' || x.kind === 'Secret')) {
      for (const k of Object.keys(d.data ?? d.stringData ?? {})) expect(knownEnv.has(k), k).toBe(true);
    }
  });

  it('ship no placeholder METRICS_TOKEN: every Deployment requires it from a Secret the operator creates', () => {
    for (const d of docs.filter((x) => x.kind === 'Secret'))
      expect(Object.keys(d.stringData ?? d.data ?? {})).not.toContain('METRICS_TOKEN');
    for (const d of deployments) {
      const env = d.spec.template.spec.containers[0].env as {
        name: string;
        valueFrom?: { secretKeyRef?: { name: string; optional?: boolean } };
      }[];
      const token = env?.find((e) => e.name === 'METRICS_TOKEN');
      expect(token?.valueFrom?.secretKeyRef?.name, d.metadata.name).toBe('lds-metrics');
      expect(token?.valueFrom?.secretKeyRef?.optional ?? false, d.metadata.name).toBe(false);
    }
  });

  it('kustomization lists every manifest file', () => {
    const k = YAML.parse(fs.readFileSync(path.join(k8sDir, 'kustomization.yaml'), 'utf8'));
    const files = fs
      .readdirSync(k8sDir)
      .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
      .sort();
    expect([...k.resources].sort()).toEqual(files);
  });
});

describe('compose file', () => {
  const compose = YAML.parse(fs.readFileSync(path.join(root, 'deploy/compose.yaml'), 'utf8'), { merge: true });
  const services = compose.services as Record<string, any>;

  it('runs every role with replicas and a grace period longer than the stream rotation', () => {
    const byRole = Object.entries(services).filter(([, s]) => s.command?.[0] === 'serve');
    expect(byRole.flatMap(([, s]) => s.command[2].split(',')).sort()).toEqual([...ROLES].sort());
    for (const [name, s] of byRole) {
      expect(s.deploy.replicas, name).toBeGreaterThanOrEqual(2);
      expect(parseInt(s.stop_grace_period, 10), name).toBeGreaterThan(rotationSeconds * 1.1);
      for (const k of Object.keys(s.environment)) expect(knownEnv.has(k), k).toBe(true);
    }
  });

  it('has a three-node NATS cluster with JetStream, PostgreSQL and Redis', () => {
    const nats = Object.entries(services).filter(([n]) => n.startsWith('nats-'));
    expect(nats).toHaveLength(3);
    for (const [, s] of nats) {
      expect(s.command).toContain('--js');
      expect(s.command).toContain('--routes');
    }
    expect(services.postgres).toBeDefined();
    expect(services.redis).toBeDefined();
    expect(services.api.environment.NATS_URL.split(',')).toHaveLength(3);
  });
});

describe('Dockerfile', () => {
  const text = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  it('is multi-stage on Node 24, runs as a non-root user and checks /v1/health', () => {
    expect(text.match(/^FROM node:24/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^USER lds$/m);
    expect(text).toMatch(/^HEALTHCHECK .*\n?.*\/v1\/health/m);
    expect(text).toMatch(/COPY .*src\/db\/migrations/);
    expect(text).toMatch(/COPY .*public/);
  });
});
