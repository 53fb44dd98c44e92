// A sampling heap profile (V8's HeapProfiler.stopSampling, the .heapprofile files), as
// bench/in-process.ts writes it and bench/profile-summary.ts reads it.

export interface HeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  /** Bytes sampled as allocated here (not in the children). */
  selfSize: number;
  children: HeapProfileNode[];
}

/** The bytes a (sub)tree of the profile sampled: its nodes' own, summed. */
export function sampledBytes(node: HeapProfileNode): number {
  return node.selfSize + node.children.reduce((sum, child) => sum + sampledBytes(child), 0);
}
