// Answers to errors Node's HTTP parser raises before a request reaches Fastify's routing: the whole
// request (headers and body) not received within REQUEST_TIMEOUT_MS, headers too large, or bytes
// that are not HTTP. They carry the error envelope like every other non-2xx, then the connection is
// closed (its state is unknown).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, type ErrorCode } from './errors.js';

function answer(err: NodeJS.ErrnoException): { status: number; code: ErrorCode; message: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      code: 'request_timeout',
      message: 'The request (headers and body) was not received in time; the connection is closed.',
    };
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, code: 'bad_request', message: 'The request headers are too large.' };
  return { status: 400, code: 'bad_request', message: 'The request is malformed.' };
}

/** Fastify's `clientErrorHandler` option. */
export function clientErrorHandler(baseUrl: () => string) {
  return function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // Only when no response has started on this connection (as Node's own handler does).
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !current?.headersSent) {
      const a = answer(err);
      const id = randomUUID();
      const body = JSON.stringify(errorBody(baseUrl(), a.code, a.message, id));
      socket.write(
        `HTTP/1.1 ${a.status} ${http.STATUS_CODES[a.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${id}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

interface WsSocket {
  terminate(): void;
}
interface WsRequest {
  id: unknown;
  log: {
    debug(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/**
 * @fastify/websocket's `errorHandler`: its default logs every socket error at error level with a
 * stack. A malformed frame (bad opcode, unmasked or oversized frame, invalid UTF-8: the `ws`
 * library's WS_ERR_* codes) or a client vanishing mid-frame is the client's doing: info without a
 * stack. Anything else is ours and stays an error.
 */
export function wsErrorHandler(err: Error & { code?: string }, socket: WsSocket, req: WsRequest): void {
  const code = err.code ?? '';
  if (code.startsWith('WS_ERR_'))
    req.log.info(
      { request_id: req.id, code, reason: err.message },
      'websocket closed: malformed frame from the client',
    );
  else if (code === 'ECONNRESET' || code === 'EPIPE')
    req.log.debug({ request_id: req.id, code }, 'websocket closed by the client');
  else req.log.error({ err, request_id: req.id }, 'websocket error');
  socket.terminate();
}
