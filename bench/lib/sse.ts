// Server-sent events read off a node:http response, for the bench, the soak and the tests that
// watch streams at the socket (where a client library would hide what they measure).
import type { IncomingMessage } from 'node:http';

/** Calls `onEvent(event, data)` for each message of `res` (`event` is "message" unless named; pings are skipped). */
export function readSse(res: IncomingMessage, onEvent: (event: string, data: string) => void): void {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of message.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length || event !== 'message') onEvent(event, data.join('\n'));
    }
  });
  res.on('error', () => {});
}
