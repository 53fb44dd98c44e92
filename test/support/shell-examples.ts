// The shell examples of a Markdown page, and a check that what one printed has the shape its
// page shows. An example is a ```sh fence; the ```text fence right after it (blank lines between
// at most) is what it prints, and an example without one prints nothing. ```sh no-run is shown,
// never run (the Quick start's `npm start`).

export interface ShellExample {
  /** Where the fence starts, as `page:line`, for messages. */
  where: string;
  code: string;
  /** What the page shows the example printing ('' when it shows nothing). */
  expected: string;
}

interface Fence {
  info: string;
  body: string;
  /** 1-based line of the opening fence. */
  start: number;
  /** 1-based line of the closing fence. */
  end: number;
}

function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A fence inside a list item is indented; its lines lose that indent.
    const open = /^( {0,3})```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const close = lines.findIndex((line, j) => j > i && line === `${indent}\`\`\``);
    if (close < 0) throw new Error(`unclosed fence at line ${i + 1}`);
    const body = lines.slice(i + 1, close).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    fences.push({ info: open[2]!.trim(), body: body.join('\n'), start: i + 1, end: close + 1 });
    i = close;
  }
  return fences;
}

/** The page's examples, in order, each with the output it shows. */
export function shellExamples(page: string, markdown: string): ShellExample[] {
  const lines = markdown.split('\n');
  const fences = fencesOf(markdown);
  const examples: ShellExample[] = [];
  fences.forEach((fence, i) => {
    if (fence.info !== 'sh') return;
    const next = fences[i + 1];
    const adjacent = next && lines.slice(fence.end, next.start - 1).every((line) => line.trim() === '');
    examples.push({
      where: `${page}:${fence.start}`,
      code: fence.body,
      expected: adjacent && next.info === 'text' ? next.body : '',
    });
  });
  return examples;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{3})?Z)?$/;

/** `…` stands for any text (ids, tokens, elided parts); everything else is literal. */
function wildcard(pattern: string): RegExp {
  const literal = pattern.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('.*')}$`, 's');
}

/**
 * Where `actual` differs in shape from `expected`: the same keys in the same order, arrays of the
 * same length, numbers for numbers; strings equal, or matching where `expected` has `…`, or of the
 * same date format where `expected` is a date (times and ids vary from run to run).
 */
export function shapeDifferences(expected: unknown, actual: unknown, at = '$'): string[] {
  if (typeof expected === 'string') {
    if (typeof actual !== 'string') return [`${at}: a string, got ${JSON.stringify(actual)}`];
    if (expected.includes('…')) return wildcard(expected).test(actual) ? [] : [`${at}: ${JSON.stringify(actual)} is not ${expected}`];
    if (ISO_DATE.test(expected)) {
      const format = new RegExp(`^${expected.replace(/\d/g, '\\d').replace(/\./g, '\\.')}$`);
      return format.test(actual) ? [] : [`${at}: ${JSON.stringify(actual)} is not a date like ${expected}`];
    }
    return expected === actual ? [] : [`${at}: ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`];
  }
  if (typeof expected === 'number') return typeof actual === 'number' ? [] : [`${at}: a number, got ${JSON.stringify(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${at}: an array of ${expected.length}, got ${JSON.stringify(actual)}`];
    return expected.flatMap((item, i) => shapeDifferences(item, actual[i], `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: an object, got ${JSON.stringify(actual)}`];
    const keys = Object.keys(expected);
    if (JSON.stringify(keys) !== JSON.stringify(Object.keys(actual))) return [`${at}: keys ${Object.keys(actual).join(',')}, not ${keys.join(',')}`];
    return keys.flatMap((key) =>
      shapeDifferences((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], `${at}.${key}`));
  }
  return expected === actual ? [] : [`${at}: ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`];
}

/** The ways to read a line as a prefix and a JSON value ending it (`data: {…}`), leftmost first. */
function jsonTails(line: string): { prefix: string; json: unknown }[] {
  const tails: { prefix: string; json: unknown }[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== '{' && line[i] !== '[') continue;
    try {
      tails.push({ prefix: line.slice(0, i), json: JSON.parse(line.slice(i)) as unknown });
    } catch {
      // Not JSON from here: a bracket in the prefix.
    }
  }
  return tails;
}

/**
 * Where the printed `actual` differs from the `expected` output line by line: a line that ends in
 * JSON is compared by shape (`shapeDifferences`) after a prefix read as a pattern where `…` is any
 * text, any other line as such a pattern.
 */
export function outputDifferences(expected: string, actual: string): string[] {
  const lines = (text: string) => text.replace(/\s+$/, '').split('\n').filter((line, i, all) => all.length > 1 || line !== '');
  const want = lines(expected);
  const got = lines(actual);
  if (want.length !== got.length) return [`${got.length} lines, not ${want.length}:\n${actual}`];
  return want.flatMap((line, i) => {
    const shown = jsonTails(line)[0];
    const printed = shown && jsonTails(got[i]!).find((tail) => wildcard(shown.prefix).test(tail.prefix));
    if (shown && printed) return shapeDifferences(shown.json, printed.json).map((d) => `line ${i + 1}: ${d}`);
    return wildcard(line).test(got[i]!) ? [] : [`line ${i + 1}: ${got[i]}\n  is not: ${line}`];
  });
}
