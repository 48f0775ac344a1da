// The live dashboard end to end: the real service on a fresh database (relay, stream, read API),
// `lds simulate` writing changes, and Debian's Chromium driving the page. Screenshots go to
// test/artifacts/ (git-ignored). Without /usr/bin/chromium the suite is skipped, saying why.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testApp, type TestApp } from '../helpers/app.js';
import { ensureBuilt } from '../helpers/build.js';
import { startRelay } from '../../src/changes/relay.js';
import type { Background } from '../../src/background.js';
import { createLogger } from '../../src/logger.js';
import { seed } from '../../src/demo/seed.js';
import { revokeKey } from '../../src/keys/store.js';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = 'test/artifacts';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(
    `[dashboard e2e] skipped: ${CHROMIUM} is missing; install Debian's chromium package to run the browser suite`,
  );

const SIMULATED = 40;

/** Runs the real `lds simulate` command against the test database. */
async function simulate(t: TestApp, count: number, rate: number): Promise<void> {
  await run('node', ['bin/lds.js', 'simulate', '--count', String(count), '--rate', String(rate)], {
    env: { ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: 'silent', NATS_URL: '', REDIS_URL: '' },
    timeout: 60_000,
  });
}

describe.skipIf(!haveChromium)('live dashboard in Chromium', () => {
  let t: TestApp;
  let relay: Background;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    // `lds simulate` runs as the real command from dist/ (built once, by whichever file needs it first).
    ensureBuilt();
    // A short connection life so rotations happen while the simulator writes.
    t = await testApp({ config: { streamRotateMs: 2000, streamRotateJitter: 0, streamHeartbeatMs: 1000 } });
    await seed(t.db.pool, { bills: 300 });
    relay = await startRelay({
      config: t.config,
      db: t.db.pool,
      databaseUrl: t.db.url,
      bus: t.bus,
      log: createLogger('silent'),
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await relay?.stop();
    await t?.close();
  });

  async function openDashboard(key: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    (page as Page & { errors?: string[] }).errors = errors;
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    return page;
  }

  it('serves the page and its assets without a key, and nothing outside public/', async () => {
    const redirect = await fetch(`${base}/dashboard`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/dashboard/');
    const html = await fetch(`${base}/dashboard/`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await html.text()).toContain('data-testid="chart"');
    for (const file of ['dashboard.js', 'sse.js', 'chart.js', 'tilemap.js', 'bill.js', 'status.js', 'dashboard.css']) {
      const res = await fetch(`${base}/dashboard/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(file.endsWith('.css') ? /^text\/css/ : /javascript/);
    }
    for (const path of ['/dashboard/missing.js', '/dashboard/..%2Fpackage.json', '/dashboard/%2e%2e%2fpackage.json']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('explains a bad key and a revoked key in plain words and stops retrying', async () => {
    const page = await openDashboard('lds_this-key-was-never-issued');
    await expect
      .poll(() => page.getByTestId('connection-badge').getAttribute('data-phase'), { timeout: 15_000 })
      .toBe('refused');
    await expect(page.getByTestId('problem').textContent()).resolves.toMatch(/does not recognise this API key/);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-bad-key.png` });

    const { api_key, api_key_id } = await t.newKey();
    await revokeKey(t.db.pool, api_key_id);
    await page.getByLabel('API key').fill(api_key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => page.getByTestId('problem').textContent(), { timeout: 15_000 }).toMatch(/has been revoked/);
    await page.close();
  });

  it('explains a 429 with the wait the service asked for', async () => {
    const { api_key } = await t.newKey({ monthlyCap: 1 });
    // Spend the month's only request so the stream request is over the cap.
    const first = await fetch(`${base}/v1/_meta/usage`, { headers: { 'X-API-Key': api_key } });
    expect(first.status).toBe(200);
    const page = await openDashboard(api_key);
    await expect
      .poll(() => page.getByTestId('connection-badge').getAttribute('data-phase'), { timeout: 15_000 })
      .toBe('rate_limited');
    await expect(page.getByTestId('problem').textContent()).resolves.toMatch(/HTTP 429.*reconnects by itself in \d+/);
    await page.close();
  });

  it('shows simulated changes live in the list, the chart and the map, losing nothing across rotations', async () => {
    const page = await openDashboard(t.key);
    await expect
      .poll(() => page.getByTestId('connection-badge').getAttribute('data-phase'), { timeout: 20_000 })
      .toBe('open');
    await expect(
      page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
          'lds.apiKey',
        ),
      ),
    ).resolves.toBe(t.key);

    // Everything written before now is stamped; the simulator's changes are those after.
    await expect
      .poll(async () => (await t.db.pool.query('SELECT count(*)::int AS n FROM changes WHERE seq IS NULL')).rows[0].n, {
        timeout: 20_000,
      })
      .toBe(0);
    const before = (await t.db.pool.query('SELECT coalesce(max(seq), 0)::bigint AS s FROM changes')).rows[0]
      .s as string;
    const rotationsBefore = Number(await page.getByTestId('rotations').textContent());

    await simulate(t, SIMULATED, 8);
    await expect
      .poll(async () => (await t.db.pool.query('SELECT count(*)::int AS n FROM changes WHERE seq IS NULL')).rows[0].n, {
        timeout: 20_000,
      })
      .toBe(0);
    const { rows: expected } = await t.db.pool.query<{
      bill_id: number;
      reason: string;
      state: string;
      changed_at: Date;
    }>(
      `SELECT c.bill_id, r.reason_name AS reason, s.state_abbr AS state, c.changed_at
         FROM changes c JOIN change_reasons r USING (reason_id) JOIN states s USING (state_id)
        WHERE c.seq > $1 ORDER BY c.seq`,
      [before],
    );
    expect(expected.length).toBeGreaterThanOrEqual(SIMULATED);
    const tuple = (billId: number | string, reason: string, at: string | Date) =>
      `${billId}|${reason}|${new Date(at).getTime()}`;
    const want = expected.map((e) => tuple(e.bill_id, e.reason, e.changed_at));

    const domRows = () =>
      page.$$eval('[data-testid="rows"] > li', (lis) =>
        lis.map((li) => ({
          id: li.getAttribute('data-id')!,
          bill: li.getAttribute('data-bill-id')!,
          reason: li.getAttribute('data-reason')!,
        })),
      );
    await expect
      .poll(
        async () => {
          const have = new Set((await domRows()).map((r) => tuple(r.bill, r.reason, r.id)));
          return want.filter((w) => !have.has(w)).length;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(0);

    // Exactly once: no id twice in the list, and each simulated change matches one row.
    const rows = await domRows();
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const counts = new Map<string, number>();
    for (const r of rows)
      counts.set(tuple(r.bill, r.reason, r.id), (counts.get(tuple(r.bill, r.reason, r.id)) ?? 0) + 1);
    for (const w of want) expect(counts.get(w), w).toBe(1);
    // Newest first.
    const ids = rows.map((r) => Date.parse(r.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    // The connection rotated while the simulator wrote, and resumed each time.
    const rotations = Number(await page.getByTestId('rotations').textContent());
    expect(rotations).toBeGreaterThan(rotationsBefore);
    expect(Number(await page.getByTestId('resumes').textContent())).toBeGreaterThanOrEqual(rotations);
    await expect(page.getByTestId('heartbeat').textContent()).resolves.toMatch(/s ago/);

    // The chart counts them (it also holds the seed's recent changes) by reason, and the map lights up.
    await expect
      .poll(async () => Number(await page.getByTestId('chart').getAttribute('data-total')), { timeout: 5000 })
      .toBeGreaterThanOrEqual(rows.length);
    const byReason = new Map<string, number>();
    for (const e of expected) byReason.set(e.reason, (byReason.get(e.reason) ?? 0) + 1);
    for (const [reason, n] of byReason) {
      const shown = Number(
        await page.locator(`[data-testid="legend"] li[data-reason="${reason}"] strong`).textContent(),
      );
      expect(shown, reason).toBeGreaterThanOrEqual(n);
    }
    await expect(page.locator('[data-testid="chart"] rect.bar').count()).resolves.toBeGreaterThan(0);
    const byState = new Map<string, number>();
    for (const e of expected) byState.set(e.state, (byState.get(e.state) ?? 0) + 1);
    for (const [state, n] of byState) {
      const tile = page.locator(`[data-testid="tilemap"] [data-state="${state}"]`);
      expect(Number(await tile.getAttribute('data-count')), state).toBeGreaterThanOrEqual(n);
      expect(Number(await tile.getAttribute('data-level')), state).toBeGreaterThan(0);
    }
    await expect(page.getByTestId('announce').textContent()).resolves.toMatch(/new change/);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-desktop.png`, fullPage: true });

    // A bill opens with its place on the status ladder, history and votes; keyboard only.
    const last = expected[expected.length - 1];
    const link = page.locator(`[data-testid="rows"] > li[data-bill-id="${last.bill_id}"] a`).first();
    await link.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('bill-dialog');
    await expect.poll(() => dialog.getAttribute('data-loaded'), { timeout: 15_000 }).toBe('true');
    const status = (await t.db.pool.query('SELECT status_id FROM bills WHERE bill_id = $1', [last.bill_id])).rows[0]
      .status_id;
    await expect(
      dialog.locator('[data-testid="status-ladder"] li[aria-current="step"]').getAttribute('data-status'),
    ).resolves.toBe(String(status));
    await expect(dialog.locator('h3').allTextContents()).resolves.toEqual(['Status', 'History', 'Votes']);
    await expect(dialog.locator('.problem').count()).resolves.toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-bill.png` });
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);

    // Phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
            .scrollWidth,
      ),
    ).resolves.toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-phone.png`, fullPage: true });
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    await page.close();
  }, 120_000);
});
