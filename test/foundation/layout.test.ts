// Conventions of the read API's folders that a reviewer would otherwise check by eye: SQL lives in
// each resource's repository.ts, and route handlers take their parameters typed from the schema
// (TypeBox type provider), never cast.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const API = path.resolve(import.meta.dirname, '../../src/api');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

describe('src/api layout', () => {
  const routeFiles = files(API)
    .map((f) => path.relative(API, f))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('repository.ts'));

  it('keeps SQL out of route files', () => {
    const withSql = routeFiles.filter((f) =>
      /\.query(<[^>]*>)?\(|\bSELECT\b|\bINSERT INTO\b/.test(readFileSync(path.join(API, f), 'utf8')),
    );
    expect(withSql).toEqual([]);
  });

  it('never casts request parameters', () => {
    const casting = routeFiles.filter((f) =>
      /\breq\.(query|params|body)\)? as\b|\bas never\b/.test(readFileSync(path.join(API, f), 'utf8')),
    );
    expect(casting).toEqual([]);
  });

  // A repository's rows are typed (from the response schemas, Static<typeof Row>), so a route that
  // answers them is checked by tsc against its response schema; an untyped function answers `any`.
  it('declares the row type of every repository function', () => {
    const untyped = files(API)
      .filter((f) => f.endsWith('repository.ts'))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/^export async function (\w+)\([^)]*\)\s*\{/gm)].map(
          (m) => `${path.relative(API, f)}: ${m[1]}`,
        ),
      );
    expect(untyped).toEqual([]);
  });

  it('gives every resource folder with routes a repository', () => {
    const folders = readdirSync(API, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'common')
      .map((e) => e.name);
    const missing = folders.filter((d) => !readdirSync(path.join(API, d)).includes('repository.ts'));
    expect(missing).toEqual([]);
  });
});

// The delivery side (issue 17): webhooks/ grouped into routes/, queue/ and delivery/; the delivery
// core knows no kind by name; one way into the deliveries table; transactions through withTransaction.
describe('delivery side layout', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');
  const read = (f: string) => readFileSync(path.join(SRC, f), 'utf8');
  const under = (dir: string) =>
    files(path.join(SRC, dir))
      .map((f) => path.relative(SRC, f))
      .filter((f) => f.endsWith('.ts'));

  it('groups webhooks/ by routes, queue and delivery', () => {
    const top = readdirSync(path.join(SRC, 'webhooks'), { withFileTypes: true })
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    expect(top).toEqual(['delivery/', 'kit.ts', 'plugin.ts', 'queue/', 'routes/', 'subscriptions.ts']);
  });

  it('keeps the delivery core free of the mirror: kinds register their handlers', () => {
    const importing = under('webhooks').filter((f) => /from '(\.\.\/)+mirror\//.test(read(f)));
    expect(importing).toEqual([]);
  });

  it('lets a kind reach the webhook machinery only through webhooks/kit.ts', () => {
    const reaching = [...under('mirror')].filter((f) => /from '\.\.\/webhooks\/(?!kit\.js')/.test(read(f)));
    expect(reaching).toEqual([]);
  });

  it('never branches on a kind by name outside the kind: the core asks the registered handler', () => {
    const branching = [...under('webhooks'), ...under('changes'), ...under('http'), ...under('api')].filter((f) =>
      /\bkind\s*[!=]==?\s*'(push_mirror|webhook)'|'(push_mirror|webhook)'\s*[!=]==?\s*\w*\.?kind\b/.test(read(f)),
    );
    expect(branching).toEqual([]);
  });

  it('inserts deliveries in one place', () => {
    const inserting = [...under('webhooks'), ...under('mirror'), ...under('changes'), ...under('api')].filter((f) =>
      /INSERT INTO deliveries\b/.test(read(f)),
    );
    expect(inserting).toEqual(['webhooks/queue/enqueue.ts']);
  });

  it('runs transactions through withTransaction (no hand-rolled BEGIN)', () => {
    const scope = [
      ...under('webhooks'),
      ...under('mirror'),
      ...under('texts'),
      ...under('changes'),
      ...under('db'),
      'demo/seed.ts',
    ].filter((f) => f !== 'db/pool.ts');
    const rolling = scope.filter((f) => /query\(\s*'BEGIN/.test(read(f)));
    expect(rolling).toEqual([]);
  });

  it('keeps SQL out of route files and never casts requests or types', () => {
    const routes = [...under('webhooks/routes'), 'webhooks/plugin.ts', 'mirror/plugin.ts', 'changes/plugin.ts'];
    expect(routes.filter((f) => /\.query(<[^>]*>)?\(|\bSELECT\b|\bINSERT INTO\b/.test(read(f)))).toEqual([]);
    const all = [...under('webhooks'), ...under('mirror'), ...under('changes'), ...under('texts')];
    expect(
      all.filter((f) => /\breq\.(query|params|body)\)? as\b|\bas never\b|\bas unknown as\b/.test(read(f))),
    ).toEqual([]);
  });

  it('has no test-only hooks or in-process wake-ups in the workers', () => {
    const worker = read('webhooks/delivery/worker.ts');
    expect(worker).not.toMatch(/crash\(|EventEmitter|queueEvents/);
  });
});

describe('import graph', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');
  // Every relative import, `import type` and re-exports included: a type-only cycle still couples
  // the modules (it is how readiness once read a dependency nobody passed).
  const graph = new Map<string, string[]>();
  for (const file of files(SRC).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g)].map((m) =>
      path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts')),
    );
    graph.set(file, deps);
  }

  function cycles(): string[][] {
    const found: string[][] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        found.push(stack.slice(stack.indexOf(f)).map((x) => path.relative(SRC, x)));
        return;
      }
      state.set(f, 'open');
      stack.push(f);
      for (const d of graph.get(f) ?? []) visit(d);
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f);
    return found;
  }

  it('reads the imports it checks', () => {
    expect(graph.get(path.join(SRC, 'changes/relay.ts'))).toContain(path.join(SRC, 'changes/events.ts'));
  });

  it('has no cycles (bus, changes, stream, webhooks, mirror, cli and the rest)', () => {
    expect(cycles()).toEqual([]);
  });

  // Folders (and top-level modules) stand in layers: whatever a folder imports must not import it
  // back, directly or through others (ops and http, changes and background did). An arrow that
  // closes a loop is an upward import.
  it('has no upward imports between folders: the folder graph has no loop', () => {
    const top = (f: string) => {
      const r = path.relative(SRC, f);
      return r.includes(path.sep) ? r.split(path.sep)[0]! : r.replace(/\.ts$/, '');
    };
    const folders = new Map<string, Set<string>>();
    for (const [f, deps] of graph) {
      for (const d of deps) {
        if (top(f) === top(d)) continue;
        if (!folders.has(top(f))) folders.set(top(f), new Set());
        folders.get(top(f))!.add(top(d));
      }
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      if (from === to) return true;
      if (seen.has(from)) return false;
      seen.add(from);
      return [...(folders.get(from) ?? [])].some((x) => reaches(x, to, seen));
    };
    const upward = [...folders].flatMap(([a, bs]) => [...bs].filter((b) => reaches(b, a)).map((b) => `${a} -> ${b}`));
    expect(upward).toEqual([]);
    // the bottom stays the bottom
    for (const low of ['domain', 'metrics', 'redis', 'jobs']) {
      expect(
        [...(folders.get(low) ?? [])].filter((d) => !['domain', 'config', 'logger', 'metrics'].includes(d)),
        low,
      ).toEqual([]);
    }
  });

  it('keeps bus/ transport only: it imports nothing of the change pipeline', () => {
    const bus = [...graph].filter(([f]) => f.startsWith(path.join(SRC, 'bus') + path.sep));
    const outside = bus.flatMap(([f, deps]) =>
      deps
        .filter((d) => /\/src\/(changes|stream|webhooks|mirror)\//.test(d))
        .map((d) => `${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`),
    );
    expect(outside).toEqual([]);
  });
});

// One way to reach a dependency (issue 26 item 3): the process root (server.ts) makes each shared
// part once and hands it down as a decorator or a narrow deps object; nothing below it makes one of
// its own or keeps a lookup table keyed by a client.
describe('dependencies', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');
  const sources = files(SRC)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ rel: path.relative(SRC, f), text: readFileSync(f, 'utf8') }));

  // [what, how it is made, the module that defines how (its factory)]
  it.each([
    ['the Redis client', /\bcreateRedis\(|new RedisClient\(/, 'redis/client.ts'],
    ['the guarded outbound HTTP', /new Outbound\(/, 'webhooks/delivery/outbound.ts'],
    ['the delivery kinds', /\bdeliveryKinds\(\)|new DeliveryKinds\(/, 'delivery-kinds.ts'],
  ])('makes %s at the process root only', (_, pattern, factory) => {
    const code = (text: string) => text.replace(/^\s*(\/\/|\*).*$/gm, '');
    expect(
      sources.filter((f) => f.rel !== 'server.ts' && f.rel !== factory && pattern.test(code(f.text))).map((f) => f.rel),
    ).toEqual([]);
  });

  it('keeps no registry keyed by a pool or a client at module level', () => {
    const registry = /^(const|let) \w+ = new (Weak)?Map<[^,]*(Pool|Redis|Client)\b/m;
    expect(sources.filter((f) => registry.test(f.text)).map((f) => f.rel)).toEqual([]);
  });
});

// Rules every layer needs have one home, src/domain/, which itself stands below everything: it
// imports nothing of the service, and no other folder writes a rule of its own again.
describe('domain rules', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');
  const all = files(SRC)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ rel: path.relative(SRC, f), text: readFileSync(f, 'utf8') }));
  const outside = all.filter((f) => !f.rel.startsWith('domain/'));

  it('domain/ imports nothing outside itself', () => {
    const reaching = all.filter((f) => f.rel.startsWith('domain/') && /from '\.\.\//.test(f.text)).map((f) => f.rel);
    expect(reaching).toEqual([]);
  });

  it.each([
    [
      'the bill number key',
      /function billNumberKey\b|bill_number_key[^\n]*upper\(|upper\([^)]*\)\s*AS bill_number_key/,
    ],
    ['the list of jurisdictions', /'AL', 'AK', 'AZ'/],
    ['the status ladder or its buckets', /'Passed Both Chambers'|'Signed into Law'|\[4, 5, 8\]/],
    ['a source status map onto the ladder', /(LEGISCAN|CONGRESS)_TO_LADDER\s*[:=]|LADDER_TO_LEGISCAN\s*[:=]/],
    ['change reasons to webhook events', /REASON_EVENTS\s*[:=]|STATUS_EVENTS\s*[:=]|function eventsForChange\b/],
  ])('defines %s only in domain/', (_, pattern) => {
    expect(outside.filter((f) => pattern.test(f.text)).map((f) => f.rel)).toEqual([]);
  });
});

// The writers (issue 26 item 2): importers of each source over a write engine and a reader that
// know no source, and the demo corpus and simulator in a home of their own. Only the command line
// and the server's --demo start reach into them.
describe('ingest and demo layout', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');
  const imports = (dir: string) =>
    files(path.join(SRC, dir))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g)].map(
          (m) => ({ from: path.relative(SRC, f), to: path.relative(SRC, path.resolve(path.dirname(f), m[1]!)) }),
        ),
      );

  it('gives each source, the reader and the write engine a folder of ingest/', () => {
    const top = readdirSync(path.join(SRC, 'ingest'), { withFileTypes: true })
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    expect(top).toEqual(['congress/', 'legiscan/', 'openstates/', 'read/', 'write/']);
    expect(readdirSync(path.join(SRC, 'demo')).sort()).toEqual(['seed', 'seed.ts', 'simulate']);
  });

  it('keeps the reader and the write engine free of every source and of the demo', () => {
    const reaching = [...imports('ingest/read'), ...imports('ingest/write')].filter((i) =>
      /^(ingest\/(legiscan|congress|openstates)|demo)\//.test(i.to),
    );
    expect(reaching).toEqual([]);
  });

  it('keeps the reader below the write engine', () => {
    expect(imports('ingest/read').filter((i) => i.to.startsWith('ingest/write/'))).toEqual([]);
  });

  it('keeps the demo apart from the importers and the read API', () => {
    expect(imports('demo').filter((i) => /^(ingest|api)\//.test(i.to))).toEqual([]);
  });

  it('lets only the command line and the server start reach the writers', () => {
    const reaching = files(SRC)
      .map((f) => path.relative(SRC, f))
      .filter((f) => f.endsWith('.ts') && !/^(ingest|demo|cli)\//.test(f) && f !== 'server.ts')
      .filter((f) => /from '(\.\.?\/)+(ingest|demo)\//.test(readFileSync(path.join(SRC, f), 'utf8')));
    expect(reaching).toEqual([]);
  });
});

// A query whose rows are read names their type (issue 26 item 6): pg types unnamed rows as `any`,
// and an `any` row lets a renamed column reach a response, a push or a file as undefined with tsc
// content. Statements whose result is not read (writes, DDL, rowCount checks) need no type.
describe('typed rows', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');

  /** `file:line` of every `.query(` call without a type argument whose rows are read. */
  function untypedRowReads(file: string): string[] {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (n: ts.Node) => {
      if (
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        n.expression.name.text === 'query' &&
        !n.typeArguments
      ) {
        let p = n.parent;
        while (ts.isAwaitExpression(p) || ts.isParenthesizedExpression(p)) p = p.parent;
        const readsRows =
          (ts.isPropertyAccessExpression(p) && p.name.text === 'rows') ||
          (ts.isVariableDeclaration(p) &&
            ((ts.isObjectBindingPattern(p.name) &&
              p.name.elements.some((e) => (e.propertyName ?? e.name).getText() === 'rows')) ||
              (ts.isIdentifier(p.name) && new RegExp(`\\b${p.name.text}\\.rows\\b`).test(text))));
        if (readsRows)
          found.push(`${path.relative(SRC, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return found;
  }

  it('finds an untyped row read where there is one', () => {
    const probe = path.join(import.meta.dirname, 'fixtures', 'untyped-query.ts');
    expect(untypedRowReads(probe).map((f) => f.split(':')[1])).toEqual(['5', '7', '10']);
  });

  it('names the row type of every query whose rows are read', () => {
    const untyped = files(SRC)
      .filter((f) => f.endsWith('.ts'))
      .flatMap(untypedRowReads);
    expect(untyped).toEqual([]);
  });
});
