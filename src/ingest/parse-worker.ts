// Worker thread of the LegiScan reader: reads and parses chunks of dataset files so parsing runs
// beside the main thread's database writes (on two cores, that is most of an import's CPU).
import { parentPort } from 'node:worker_threads';
import { parseChunk, prepareFor, type ChunkRequest } from './parse-chunk.js';

if (parentPort) {
  const port = parentPort;
  port.on('message', (req: ChunkRequest) => void prepareFor(req).then(() => port.postMessage(parseChunk(req))));
}
