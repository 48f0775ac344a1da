// Prometheus metrics. Counters that other modules increment live here (one registry per process);
// gauges that reflect the database (relay lag, queue depth, deliveries by status) are collected on
// scrape, so they are right whichever process did the work.
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'lds_process_' });

export const httpRequests = new client.Counter({
  name: 'lds_http_requests_total',
  help: 'HTTP requests by route pattern, method and status code',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new client.Histogram({
  name: 'lds_http_request_duration_seconds',
  help: 'HTTP request latency by route pattern (stream responses excluded)',
  labelNames: ['route', 'method'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const reconnects = new client.Counter({
  name: 'lds_reconnects_total',
  help: 'Reconnections of long-lived connections by component (nats, pg_listen)',
  labelNames: ['component'] as const,
  registers: [registry],
});

export const deliveryOutcomes = new client.Counter({
  name: 'lds_webhook_attempts_total',
  help: 'Webhook and push-mirror delivery attempts made by this process, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Gauges whose value is read when scraped; set by the ops plugin with access to the app. */
export const streamConnections = new client.Gauge({
  name: 'lds_stream_connections',
  help: 'Open stream connections (SSE and WebSocket) in this process',
  registers: [registry],
});

export const streamOpensWaiting = new client.Gauge({
  name: 'lds_stream_opens_waiting',
  help: "Streams admitted in this process and waiting for their moment to open (a key's STREAM_OPENS_PER_SEC)",
  registers: [registry],
});

export const relayLag = new client.Gauge({
  name: 'lds_relay_lag_seconds',
  help: 'Age of the oldest change not yet stamped and published by the relay (0 when none)',
  registers: [registry],
});

export const relayPublishFailing = new client.Gauge({
  name: 'lds_relay_publish_failing',
  help: '1 while the active relay of this process cannot publish to the bus (its publishes fail and are retried), else 0',
  registers: [registry],
});

export const relayUnpublished = new client.Gauge({
  name: 'lds_relay_unpublished_changes',
  help: 'Stamped changes the relay has not yet recorded as published on the bus (last_seq - published_seq)',
  registers: [registry],
});

export const queueDepth = new client.Gauge({
  name: 'lds_delivery_queue_depth',
  help: 'Deliveries waiting (pending or in flight)',
  registers: [registry],
});

export const deliveriesByStatus = new client.Gauge({
  name: 'lds_deliveries',
  help: 'Deliveries by status (cluster-wide, from the database)',
  labelNames: ['status'] as const,
  registers: [registry],
});
