// LOG_FORMAT=pretty: pino's JSON lines (already redacted) rewritten for a person at a terminal:
// time, level, message, the other fields as name=value, and an error's stack on the lines below.
import type { DestinationStream } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** ANSI colours by level: grey below info, yellow for warn, red from error. */
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '31' };

const paint = (colour: boolean, code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
const shown = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(1) : JSON.stringify(value);

/** One pino JSON line as one or more lines of text; anything that is not JSON passes unchanged. */
export function prettyLine(line: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, err, ...fields } = entry;
  const code = COLOURS[level as number] ?? '0';
  const clock = new Date(time as number).toTimeString().slice(0, 8);
  const rest = Object.entries(fields).map(([name, value]) => `${name}=${shown(value)}`).join(' ');
  const stack = (err as { stack?: unknown } | undefined)?.stack;
  const below = typeof stack === 'string' ? `\n  ${stack.replaceAll('\n', '\n  ')}` : err === undefined ? '' : ` err=${shown(err)}`;
  return `${paint(colour, '90', clock)} ${paint(colour, code, LEVELS[level as number] ?? String(level))} ${String(msg ?? '')}${rest ? ` ${paint(colour, '90', rest)}` : ''}${below}\n`;
}

/** A pino destination writing pretty lines to `out` (coloured when it is a terminal). */
export function prettyDestination(out: NodeJS.WriteStream = process.stdout): DestinationStream {
  const colour = Boolean(out.isTTY) && out.hasColors?.() !== false;
  return { write: (line: string) => void out.write(prettyLine(line, colour)) };
}
