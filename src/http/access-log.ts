// The access log: one line per request, written when its answer is complete, with the request
// (method, URL with secrets redacted, host, client address: logger.ts requestSerializer), the
// status and the time taken. Fastify's own controller writes two lines per request (`incoming
// request` on arrival, then `request completed` with only the status); the arrival line told
// nothing the completion line cannot, and each line cost a small read about a tenth of its CPU
// (bench/read, LOG_LEVEL=warn beside info). A stream also gets a `stream opened` line (streamOpened,
// called by the stream routes once admitted): its answer completes minutes later, if at all (Fastify
// sees neither a WebSocket nor an SSE stream the client closed complete). Every other line of
// Fastify's (errors, a response that failed after its headers, the serializer failing) is kept as
// Fastify writes it.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { accessLineWriter, type AccessLineWriter, type Logger } from '../logger.js';

export class AccessLog extends LogController {
  private readonly direct: AccessLineWriter | undefined;

  /** logger: the app's, whose destination a completed request's line is written to directly (logger.ts). */
  constructor(logger?: Logger) {
    super();
    this.direct = logger && accessLineWriter(logger);
  }

  override incomingRequest(): void {
    // logged on completion, with the answer
  }

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(req)) return;
    if (error) reply.log.error({ req, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else if (this.direct && (reply.log as Logger).isLevelEnabled('info'))
      this.direct(req, reply.statusCode, reply.elapsedTime);
    else reply.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The access line of a stream, when it opens. */
export function streamOpened(req: FastifyRequest): void {
  req.log.info({ req }, 'stream opened');
}
