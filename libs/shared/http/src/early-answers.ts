import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The most of a request body read and thrown away after the request was answered early. */
export const EARLY_ANSWER_DRAIN_BYTES = 16 * 1024 * 1024;
/** How long the rest of such a body may take to arrive before the connection is closed. */
export const EARLY_ANSWER_DRAIN_MS = 5000;

export interface DrainLimits {
  bytes: number;
  ms: number;
}

/**
 * A request answered before its body was read whole (a 413 at the limit, a 409 or 503 before reading, a
 * 400 at the first bad byte, an upstream's early answer relayed by the gateway) leaves the rest of the body
 * on the connection. Node throws such a body away only when nobody started reading it; once a handler or a
 * proxy read part of it and stopped, the rest sat unread and the client's next request on the keep-alive
 * connection waited behind it until the request timeout (408). So the rest is read and dropped here, and
 * the connection serves the next request. Within bounds: a body that goes on beyond them, or announces more
 * than they allow (then the answer says `Connection: close`), has its connection closed instead. Closing
 * at once is not the default because a client (the gateway's agent) still sending its body may get the
 * reset before it has read the answer.
 */
export function earlyAnswerDrain(
  limits: DrainLimits = { bytes: EARLY_ANSWER_DRAIN_BYTES, ms: EARLY_ANSWER_DRAIN_MS },
): RequestListener {
  const announcesTooMuch = (req: IncomingMessage) => Number(req.headers['content-length'] ?? 0) > limits.bytes;
  // One listener shared by every response (no closure per request): what it needs is on the response.
  function drainUnreadRest(this: ServerResponse): void {
    const req = this.req;
    if (req.complete) return;
    // A request a handler destroyed (a stream iterator left early) can no longer be read: close.
    if (announcesTooMuch(req) || req.destroyed) req.socket.destroy();
    else drainRest(req, req.socket, limits);
  }
  // Run before the app's handler: a handler may answer within the request's tick (a declared length over
  // a limit), and the response must still be marked and watched then.
  return (req, res) => {
    if (announcesTooMuch(req)) res.setHeader('Connection', 'close');
    res.on('finish', drainUnreadRest);
  };
}

/** Connections reading the rest of a body whose request was answered already. */
const draining = new WeakSet<object>();

/**
 * Whether `socket` is reading the rest of an answered request's body: the request may still run out of
 * time, but its client has its answer, so the connection is closed rather than answered a second time.
 */
export const isDrainingAfterAnswer = (socket: object): boolean => draining.has(socket);

function drainRest(req: IncomingMessage, socket: Socket, limits: DrainLimits): void {
  let drained = 0;
  const timer = setTimeout(() => socket.destroy(), limits.ms);
  draining.add(socket);
  const stop = () => {
    clearTimeout(timer);
    draining.delete(socket);
    socket.off('close', stop);
  };
  req.once('end', stop);
  socket.once('close', stop);
  // An answer that closes the connection (the client asked for it, or the server is shutting down): Node ends
  // the socket after it and destroys it once it is written. Destroyed with the body's rest unread, the
  // connection is reset, and a client still sending may meet the reset before it reads the answer. So the
  // socket lingers until the rest is read, within the same bounds (as nginx's lingering close).
  if (socket.listeners('finish').includes(socket.destroy)) {
    socket.removeListener('finish', socket.destroy);
    req.once('end', () => socket.destroy());
  }
  // A pipe still attached (the gateway's to an upstream that has answered) would hold the body back
  // whenever that upstream request stops taking it; what is left is nobody's now.
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.bytes) socket.destroy();
  });
  req.resume();
}
