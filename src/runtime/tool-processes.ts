// The processes tools started, and for which agent (docs/security.md#scope-holds).
// The daemon asks this when a connection comes in, to confine a
// connection from a tool's process tree to that agent's members.
import { randomBytes } from "../base/random-bytes.ts";
import { readdirSync, readFileSync } from "node:fs";

/** The variable each tool process carries: a random token the daemon knows. */
export const TOOL_TOKEN_VAR = "CRABTALK_TOOL_TOKEN";

/** Whose a tool process is: the agent, and the run that started it (a session's run id, see Session.runId). */
export interface ToolOwner {
  agent: string;
  run?: string;
}

interface Root extends ToolOwner {
  pid: number;
  /** /proc start time: a reused pid is not the same process. */
  startTime: string;
}

/** Roots kept; the oldest go first beyond this. */
const MAX_ROOTS = 4096;

export class ToolProcesses {
  private readonly roots = new Map<number, Root>();
  /** Token → agent, and the start time of the process it was given to (once known). */
  private readonly tokens = new Map<string, ToolOwner & { startTime?: string }>();

  /** A fresh token for one tool process of `owner`, to put in its environment. */
  token(owner: ToolOwner): string {
    const token = randomBytes(18).toString("base64url");
    this.tokens.set(token, { ...owner });
    trim(this.tokens);
    return token;
  }

  /** Records a process a tool started with `token` (its children are found through it). */
  register(pid: number, owner: ToolOwner, token?: string): void {
    const startTime = statFields(pid)?.[START_TIME];
    if (startTime === undefined) return; // already gone: nothing of it can connect
    const given = token === undefined ? undefined : this.tokens.get(token);
    if (given) given.startTime = startTime;
    this.roots.delete(pid);
    this.roots.set(pid, { pid, startTime, agent: owner.agent, run: owner.run });
    trim(this.roots);
  }

  /**
   * Called when a registered process has ended: forgets it unless processes
   * of its session live on (started in the background). A forgotten pid may
   * be reused by anyone, so it must not confine strangers.
   */
  release(pid: number): void {
    if (!this.roots.has(pid)) return;
    if (!sessionHasMembers(pid)) this.roots.delete(pid);
  }

  /** The start time of the oldest process a tool started that may still matter (0 when unknown): nothing older is a tool's. */
  get oldestStart(): number {
    let oldest = Infinity;
    for (const { startTime } of [...this.roots.values(), ...this.tokens.values()]) {
      if (startTime === undefined) return 0; // a token whose process is not known yet
      oldest = Math.min(oldest, Number(startTime));
    }
    return Number.isFinite(oldest) ? oldest : 0;
  }

  get empty(): boolean {
    return this.roots.size === 0 && this.tokens.size === 0;
  }

  /** The owner of the root that is this exact process (pid and start time), if any. */
  rootOwner(pid: number, startTime: string | undefined): ToolOwner | undefined {
    const root = this.roots.get(pid);
    return root && root.startTime === startTime ? root : undefined;
  }

  /** The owner of a session led by a tool root (a detached child keeps its session). */
  sessionOwner(sid: number): ToolOwner | undefined {
    return this.roots.get(sid);
  }

  tokenOwner(token: string): ToolOwner | undefined {
    return this.tokens.get(token);
  }
}

function trim<K, V>(map: Map<K, V>): void {
  while (map.size > MAX_ROOTS) map.delete(map.keys().next().value as K);
}

function sessionHasMembers(sid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return false;
  }
  return entries.some((e) => /^\d+$/.test(e) && Number(statFields(Number(e))?.[SESSION]) === sid);
}

/** Indexes into statFields: field 4 (ppid), 6 (session) and 22 (start time) of /proc/<pid>/stat. */
export const PPID = 1;
export const SESSION = 3;
export const START_TIME = 19;

/** The fields of /proc/<pid>/stat after the command name (Linux); undefined elsewhere or when gone. */
export function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}
