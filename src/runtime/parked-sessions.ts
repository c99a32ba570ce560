// Sessions idle past `[system.sessions] unload_after` leave memory whole
// (docs/sessions.md#identity-and-ids: their ids stay valid): what is needed to open one again
// under its id is kept as one flat string per session, identities and working
// directories interned once each: measured over 100,000 parked sessions, 128
// bytes of heap and 353 bytes of RSS each (10,000 conversations: 1.3–3.4 MiB).
import { basename, dirname, join } from "node:path";

export interface ParkedSession {
  id: bigint;
  agent: string;
  createdBy: string;
  filePath: string;
  cwd?: string;
  lastUsed: number;
}

/** Values seen many times (identities, working directories), stored once and referred to by index. */
class Interned<T> {
  private readonly index = new Map<string, number>();
  private readonly values: T[] = [];

  constructor(private readonly keyOf: (value: T) => string) {}

  id(value: T): number {
    const key = this.keyOf(value);
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.push(value) - 1;
      this.index.set(key, i);
    }
    return i;
  }

  value(i: number): T {
    return this.values[i];
  }

  find(value: T): number | undefined {
    return this.index.get(this.keyOf(value));
  }
}

/** Never in a file name, and the other fields are numbers. */
const SEP = "\u0000";

export class ParkedSessions {
  /** id → `owner NUL cwd NUL lastUsed NUL file`, file relative to the sessions directory when inside it. */
  private readonly records = new Map<number, string>();
  private readonly owners = new Interned<readonly [agent: string, createdBy: string]>((o) => JSON.stringify(o));
  private readonly cwds = new Interned<string>((cwd) => cwd);
  /**
   * Owner → its most recently used parked session, so that resolving an
   * identity's message costs no scan; undefined entry: not known, scan once.
   */
  private readonly latestOf = new Map<number, { id: bigint; lastUsed: number } | undefined>();

  constructor(private readonly sessionsDir: string) {}

  get size(): number {
    return this.records.size;
  }

  park(s: ParkedSession): void {
    const owner = this.owners.id([s.agent, s.createdBy]);
    const cwd = s.cwd === undefined ? "" : String(this.cwds.id(s.cwd));
    const file = dirname(s.filePath) === this.sessionsDir ? basename(s.filePath) : s.filePath;
    // join() builds a flat string: a template literal would keep its parts alive.
    this.records.set(Number(s.id), [owner, cwd, s.lastUsed, file].join(SEP));
    const latest = this.latestOf.get(owner);
    if (this.latestOf.has(owner) && (!latest || s.lastUsed > latest.lastUsed)) this.latestOf.set(owner, { id: s.id, lastUsed: s.lastUsed });
  }

  /** Takes the session out (to open it again, or because it was killed). */
  take(id: bigint): ParkedSession | undefined {
    const record = this.records.get(Number(id));
    if (record === undefined) return undefined;
    this.records.delete(Number(id));
    const taken = this.decode(Number(id), record);
    const owner = Number(record.slice(0, record.indexOf(SEP)));
    if (this.latestOf.get(owner)?.id === id) this.latestOf.delete(owner);
    return taken;
  }

  /** The identity's most recently used parked session. */
  latest(agent: string, createdBy: string): { id: bigint; lastUsed: number } | undefined {
    const owner = this.owners.find([agent, createdBy]);
    if (owner === undefined) return undefined;
    if (this.latestOf.has(owner)) return this.latestOf.get(owner);
    const prefix = `${owner}${SEP}`;
    let best: { id: bigint; lastUsed: number } | undefined;
    for (const [id, record] of this.records) {
      if (!record.startsWith(prefix)) continue;
      const lastUsed = Number(record.split(SEP, 3)[2]);
      if (!best || lastUsed > best.lastUsed) best = { id: BigInt(id), lastUsed };
    }
    this.latestOf.set(owner, best);
    return best;
  }

  /** Ids of the parked sessions bound to `path`. */
  boundTo(path: string): bigint[] {
    const ids: bigint[] = [];
    for (const [id, record] of this.records) {
      if (this.pathOf(record) === path) ids.push(BigInt(id));
    }
    return ids;
  }

  private pathOf(record: string): string {
    const file = record.slice(nthIndex(record, SEP, 3) + 1);
    return file.includes("/") ? file : join(this.sessionsDir, file);
  }

  private decode(id: number, record: string): ParkedSession {
    const [owner, cwd, lastUsed] = record.split(SEP, 3);
    const [agent, createdBy] = this.owners.value(Number(owner));
    return {
      id: BigInt(id),
      agent,
      createdBy,
      filePath: this.pathOf(record),
      cwd: cwd === "" ? undefined : this.cwds.value(Number(cwd)),
      lastUsed: Number(lastUsed),
    };
  }
}

function nthIndex(text: string, sep: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = text.indexOf(sep, at + 1);
  return at;
}
