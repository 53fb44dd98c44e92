// The parent's handle on the webhook receivers (receivers-process.ts runs them in a child process).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { stopProcess } from '../../bench/lib/processes.js';

export interface ReceiverSpec {
  name: string;
  /** ok: 204 at once; slow: 204 after delayMs; flaky: 500 to the first attempt of ~1 event in 10. */
  kind: 'ok' | 'slow' | 'flaky';
  delayMs: number;
  /** The event names its endpoint subscribes to. */
  events: string[];
  /** Sabotage: report one delivered event as missing (proves the check can fail). */
  forgetOne?: boolean;
}

type Command =
  | { type: 'listen'; spec: ReceiverSpec }
  | { type: 'secret'; port: number; secret: string }
  | { type: 'expect'; port: number; ids: string[] }
  | { type: 'progress' }
  | { type: 'report' };
export type ReceiverCommand = { seq: number } & Command;

export interface ReceiverProgress {
  port: number;
  name: string;
  /** Requests received, whatever the answer. */
  requests: number;
  /** Distinct event ids answered 2xx. */
  distinct: number;
  /** Expected ids (see expect) not answered 2xx yet. */
  missing: number;
}

export interface ReceiverReport extends ReceiverProgress {
  expected: number;
  /** 2xx receipts of an id beyond its first (at-least-once allows them; they are counted). */
  duplicates: number;
  failedOnPurpose: number;
  badSignatures: number;
  /** Deliveries that were not an event this endpoint subscribes to. */
  badBodies: number;
  missingSample: string[];
  samples: string[];
}

export interface Receivers {
  listen(spec: ReceiverSpec): Promise<{ port: number; url: string }>;
  setSecret(port: number, secret: string): Promise<void>;
  expect(port: number, ids: string[]): Promise<void>;
  progress(): Promise<ReceiverProgress[]>;
  report(): Promise<ReceiverReport[]>;
  stop(): Promise<void>;
}

export function startReceivers(): Receivers {
  const script = resolve(import.meta.dirname, 'receivers-process.ts');
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const ask = <T>(command: Command, timeoutMs = 30_000): Promise<T> => {
    const n = ++seq;
    return new Promise<T>((resolvePromise, reject) => {
      const timer = setTimeout(() => done(new Error(`webhook receivers: no answer to ${command.type} within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (m: unknown) => {
        if (m && typeof m === 'object' && (m as { seq?: unknown }).seq === n) done(undefined, m as T);
      };
      const onExit = (code: number | null, signal: string | null) => done(new Error(`webhook receivers exited (code ${code}, signal ${signal})`));
      function done(error?: Error, value?: T): void {
        clearTimeout(timer);
        proc.off('message', onMessage);
        proc.off('exit', onExit);
        if (error) reject(error);
        else resolvePromise(value as T);
      }
      proc.on('message', onMessage);
      proc.once('exit', onExit);
      proc.send({ ...command, seq: n });
    });
  };
  return {
    listen: async (spec) => {
      const { port } = await ask<{ port: number }>({ type: 'listen', spec });
      return { port, url: `http://127.0.0.1:${port}/hook` };
    },
    setSecret: async (port, secret) => {
      await ask({ type: 'secret', port, secret });
    },
    expect: async (port, ids) => {
      await ask({ type: 'expect', port, ids });
    },
    progress: async () => (await ask<{ receivers: ReceiverProgress[] }>({ type: 'progress' })).receivers,
    report: async () => (await ask<{ receivers: ReceiverReport[] }>({ type: 'report' })).receivers,
    stop: () => stopProcess(proc),
  };
}
