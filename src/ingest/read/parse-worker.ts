// Worker thread of the source reader: reads and parses chunks of source files so parsing runs
// beside the main thread's database writes (on two cores, that is most of an import's CPU). It
// loads each source's parser module on the first chunk that names it.
import { parentPort } from 'node:worker_threads';
import { parseChunk, type ChunkRequest, type ParseFn } from './parse-chunk.js';

const parsers = new Map<string, Promise<ParseFn>>();

function parserOf(module: string): Promise<ParseFn> {
  let p = parsers.get(module);
  if (!p) {
    p = import(module).then((m: { parse: ParseFn }) => m.parse);
    parsers.set(module, p);
  }
  return p;
}

if (parentPort) {
  const port = parentPort;
  port.on('message', (req: ChunkRequest) => {
    parserOf(req.module).then(
      (parse) => port.postMessage(parseChunk(req, parse)),
      // a parser that cannot load fails each file of the chunk rather than leaving the import waiting
      (err: Error) =>
        port.postMessage({
          id: req.id,
          files: req.files.map((file) => ({
            file,
            data: null,
            error: { message: `parser unavailable: ${err.message}` },
          })),
        }),
    );
  });
}
