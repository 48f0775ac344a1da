// Worker thread of the diff worker: computes one text change at a time, so a long diff (seconds for
// two large unrelated versions) never blocks the event loop, and a shutdown can end it at once.
import { parentPort } from 'node:worker_threads';
import { computeTextChange } from './diff.js';
import type { DiffRequest, DiffReply } from './compute.js';

if (parentPort) {
  const port = parentPort;
  port.on('message', (req: DiffRequest) => {
    let reply: DiffReply;
    try {
      reply = { id: req.id, stats: computeTextChange(req.a, req.b, req.labels) };
    } catch (err) {
      reply = { id: req.id, error: String((err as Error)?.message ?? err) };
    }
    port.postMessage(reply);
  });
}
