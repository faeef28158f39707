import { buildErrorPayload, type ErrorCode } from '@mt/errors';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isDrainingAfterAnswer } from './early-answers';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout' };

interface ClientFailure {
  status: 400 | 408;
  code: ErrorCode;
  message: string;
}

function describe(error: NodeJS.ErrnoException, requestTimeoutMs: number): ClientFailure {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const seconds = Math.round(requestTimeoutMs / 100) / 10;
    return {
      status: 408,
      code: 'request_timeout',
      message: `request not received in time (headers and body are due within ${seconds} s)`,
    };
  }
  const message =
    error.code === 'HPE_HEADER_OVERFLOW' ? 'request headers too large' : 'malformed HTTP request';
  return { status: 400, code: 'validation_failed', message };
}

function payload(failure: ClientFailure, requestId: string): string {
  return JSON.stringify(
    buildErrorPayload({
      message: failure.message,
      status: failure.status,
      code: failure.code,
      requestId,
      // docs/api.md "Errors": every 400 carries details; the request as a whole is at fault.
      ...(failure.status === 400 ? { details: [{ path: '', message: failure.message }] } : {}),
    }),
  );
}

/**
 * Requests Node's HTTP server gives up on never reach express's error middleware; they get the
 * contract's payload here instead of Node's bare answer: 400 for what the parser rejects (CR/LF inside a
 * header, bad framing, oversized headers), 408 for a request whose headers and body did not all arrive
 * within the request timeout (never-ending headers, a chunked body that never ends, a Content-Length
 * that is never sent). A request whose headers were read already has a response object, its request id
 * and the headers the middleware set: the 408 goes through it. The connection is closed either way
 * (what is left of the request cannot be told apart from the next one).
 */
export const clientErrorHandler =
  (requestTimeoutMs: number) =>
  (error: NodeJS.ErrnoException, socket: Duplex): void => {
    // A request answered early whose body then ran out of time has had its one answer: close.
    if (!socket.writable || error.code === 'ECONNRESET' || isDrainingAfterAnswer(socket)) {
      socket.destroy();
      return;
    }
    const failure = describe(error, requestTimeoutMs);
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight) {
      answerThrough(inFlight, failure, socket);
      return;
    }
    const requestId = randomUUID();
    const body = payload(failure, requestId);
    socket.end(
      `HTTP/1.1 ${failure.status} ${STATUS_TEXT[failure.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

function answerThrough(res: ServerResponse, failure: ClientFailure, socket: Duplex): void {
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = String(res.getHeader('x-request-id') ?? randomUUID());
  if (!res.hasHeader('x-request-id')) res.setHeader('X-Request-Id', requestId);
  const body = payload(failure, requestId);
  res.statusCode = failure.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Connection', 'close');
  res.end(body, () => socket.destroy());
}
