// 405 for a wrong method on a known path. Routes are tracked as they are registered and the
// concrete path is matched against their patterns, so /v1/bills/123 with POST is a 405 while
// /v1/nothing is a 404.
import type { RouteOptions } from 'fastify';

interface Pattern {
  re: RegExp;
  methods: Set<string>;
  routes: RouteOptions[];
}

function toRegExp(url: string): RegExp {
  const parts = url.split('/').map((seg) => {
    if (seg === '*') return '.*';
    if (seg.startsWith(':')) return '[^/]+';
    return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}/?$`);
}

export class RouteTable {
  private patterns = new Map<string, Pattern>();

  add(route: RouteOptions): void {
    if (route.url === '*' || route.url === '/*') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let p = this.patterns.get(route.url);
    if (!p) {
      p = { re: toRegExp(route.url), methods: new Set(), routes: [] };
      this.patterns.set(route.url, p);
    }
    for (const m of methods) p.methods.add(m.toUpperCase());
    p.routes.push(route);
  }

  /** Methods allowed on a concrete path, or undefined when no route matches it. */
  allowed(path: string): string[] | undefined {
    const out = new Set<string>();
    for (const p of this.patterns.values()) if (p.re.test(path)) for (const m of p.methods) out.add(m);
    return out.size ? [...out].sort() : undefined;
  }

  /** Registered paths; `hidden` when every route of the path is kept out of the OpenAPI document
   * (read late: plugins such as @fastify/websocket set schema.hide after this hook has run). */
  urls(): { url: string; methods: string[]; hidden: boolean }[] {
    return [...this.patterns.entries()].map(([url, p]) => ({
      url,
      methods: [...p.methods],
      hidden: p.routes.every((r) => (r.schema as { hide?: boolean } | undefined)?.hide === true),
    }));
  }
}
