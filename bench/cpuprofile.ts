// Summarises a .cpuprofile (from `bun --cpu-prof`, e.g. bench/streams.ts --profile):
// self time by group (ours: src/, SDK: node_modules/<pkg>, runtime: everything
// else: Bun/JSC builtins, native, GC), the same with native time charged to
// the JS that called it (Bun's fetch, which the SDKs call through our wrapper,
// kept apart as runtime:fetch), by file and by function, and the inclusive
// (total) time of our functions. Sampling profiles overweight JS next to
// native work: check a hot spot's real cost with a micro-benchmark.
// Usage: bun bench/cpuprofile.ts FILE.cpuprofile [--top N] [--skip-ms MS] [--interval-us US] [--windows FILE]
//   --interval-us: the profile's sampling interval (--cpu-prof-interval; default: the median gap)
//   --skip-ms drops the first MS of samples (start-up and warm-up).
//   --windows FILE keeps only the samples inside the [startMs, endMs] pairs
//   (epoch ms, as the profile's startTime) that FILE holds as JSON, e.g. the
//   bursts bench/burst.ts --profile writes.
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function groupOf(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return `sdk:${rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const src = url.indexOf("/src/");
  if (src >= 0) return "ours";
  return "runtime";
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const src = url.indexOf("/src/");
  if (src >= 0) return url.slice(src + 1);
  return url || "(native)";
}

function medianDelta(deltas: number[]): number {
  const s = deltas.filter((d) => d > 0).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 1000;
}

/** Self and inclusive time; each sample counts one sampling interval (`intervalUs`, default: the median gap). */
export function summarise(profile: Profile, skipMs = 0, intervalUs?: number, windows?: Array<[number, number]>) {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const self = new Map<number, number>();
  const interval = intervalUs ?? medianDelta(profile.timeDeltas);
  let t = 0;
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's weight is one sampling interval: the deltas also hold the time
    // the thread slept in the event loop between samples, which is not CPU.
    t += profile.timeDeltas[i];
    if (t / 1000 < skipMs) continue;
    if (windows) {
      const at = (profile.startTime + t) / 1000;
      if (!windows.some(([a, b]) => at >= a && at <= b)) continue;
    }
    const id = profile.samples[i];
    if (byId.get(id)?.callFrame.functionName === "(idle)") {
      idle += interval;
      continue;
    }
    self.set(id, (self.get(id) ?? 0) + interval);
    total += interval;
  }
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const groups = new Map<string, number>();
  const files = new Map<string, number>();
  const fns = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const charged = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    add(groups, groupOf(f.url), us);
    // Native work (a write, fetch, JSON.stringify) charged to the nearest JS frame that called it.
    let owner = id;
    while (byId.get(owner)!.callFrame.url === "" && parent.has(owner)) owner = parent.get(owner)!;
    const ownerUrl = byId.get(owner)!.callFrame.url;
    const group =
      f.functionName === "fetch" && f.url === ""
        ? "runtime:fetch"
        : ownerUrl === ""
          ? "runtime (no JS caller: GC, event loop, I/O callbacks)"
          : groupOf(ownerUrl);
    add(charged, group, us);
    add(files, shortUrl(f.url), us);
    add(fns, `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}:${f.lineNumber + 1}`, us);
    // Inclusive: every distinct our-code frame on the stack gets the sample.
    const seen = new Set<string>();
    for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
      const pf = byId.get(p)!.callFrame;
      if (groupOf(pf.url) !== "ours") continue;
      const key = `${pf.functionName || "(anonymous)"} ${shortUrl(pf.url)}:${pf.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      add(inclusive, key, us);
    }
  }
  const table = (m: Map<string, number>, top: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => ({ ms: Math.round(us / 100) / 10, pct: Math.round((us / total) * 1000) / 10, name: k }));
  return { total_ms: Math.round(total / 1000), idle_ms: Math.round(idle / 1000), table, groups, charged, files, fns, inclusive };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: bun bench/cpuprofile.ts FILE.cpuprofile [--top N] [--skip-ms MS]");
    process.exit(2);
  }
  const opt = (name: string, d: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : d;
  };
  const top = opt("--top", 30);
  const interval = opt("--interval-us", 0);
  const w = process.argv.indexOf("--windows");
  const windows = w >= 0 ? (JSON.parse(readFileSync(process.argv[w + 1], "utf8")) as Array<[number, number]>) : undefined;
  const s = summarise(JSON.parse(readFileSync(file, "utf8")), opt("--skip-ms", 0), interval || undefined, windows);
  const print = (title: string, rows: Array<{ ms: number; pct: number; name: string }>) => {
    console.log(`\n## ${title}`);
    for (const r of rows) console.log(`${r.ms.toFixed(1).padStart(9)} ms ${r.pct.toFixed(1).padStart(5)} %  ${r.name}`);
  };
  console.log(`${s.total_ms} ms of samples (one interval each; idle ${s.idle_ms} ms not counted)`);
  print("self time by group", s.table(s.groups, top));
  print("by group, native time charged to its JS caller", s.table(s.charged, top));
  print("self time by file", s.table(s.files, top));
  print("self time by function", s.table(s.fns, top));
  print("inclusive time of our functions", s.table(s.inclusive, top));
}
