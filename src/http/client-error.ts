// A request that node's HTTP parser refuses never reaches Yoga: a URL or headers over node's limit
// (16 KiB), bytes that are not HTTP. Node would answer with a bare status line and no body; this
// answers in the contract's error shape (status = `code`) instead, under node's own conditions,
// then closes the connection as node does.
import type { Socket } from 'node:net';
import type { ErrorBody } from './errors.js';

const ANSWERS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'The request line and headers must not be larger than 16 KiB' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, reason: 'Payload Too Large', message: 'Chunk extensions are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request took too long to arrive' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', message: 'The request is not valid HTTP' };

/** The node server's 'clientError' listener. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // As node: answer only if nothing of an in-flight response was written to this socket yet.
  const inFlight = (socket as Socket & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?._headerSent) {
    const { status, reason, message } = ANSWERS[error.code ?? ''] ?? MALFORMED;
    const body: ErrorBody = { error: true, code: status, message };
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
