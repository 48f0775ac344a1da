import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, settingsTable } from '../../src/config.js';

describe('config', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBe('./data');
    expect(c.natsUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.logLevel).toBe('info');
    expect(c.roles).toEqual(['api', 'stream', 'relay', 'dispatcher', 'worker', 'bulk']);
    expect(c.webhookRetrySchedule).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(c.publicBaseUrl).toBe('http://localhost:8080'); // the name the start banner prints
  });

  it.each([
    ['PORT', 'abc', /PORT="abc" is invalid: PORT accepts an integer from 0 to 65535/],
    ['PORT', '70000', /PORT accepts an integer/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL accepts a URL starting with postgres:\/\/ or postgresql:\/\//],
    ['NATS_URL', 'http://x', /NATS_URL accepts a URL/],
    ['REDIS_URL', 'nope', /REDIS_URL accepts a URL starting with redis:\/\//],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL accepts one of fatal, error, warn, info, debug, trace, silent/],
    ['LDS_ROLES', 'api,cook', /LDS_ROLES accepts a comma-separated list of roles/],
  ])('rejects %s=%s naming the variable and what it accepts', (env, value, message) => {
    expect(() => loadConfig({ [env]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [env]: value })).toThrow(message);
  });

  it('reads valid values', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@h/db',
      NATS_URL: 'nats://127.0.0.1:4222',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'debug',
      DATA_DIR: '/tmp/x',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@h/db',
      natsUrl: 'nats://127.0.0.1:4222',
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'debug',
      dataDir: '/tmp/x',
    });
    expect(c.publicBaseUrl).toBe('http://localhost:9000');
  });

  it('documents every setting', () => {
    const rows = settingsTable();
    expect(rows.map((r) => r.env)).toEqual(
      expect.arrayContaining(['PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'NATS_URL', 'REDIS_URL', 'LOG_LEVEL']),
    );
    for (const r of rows) expect(r.description.length).toBeGreaterThan(5);
  });
});
