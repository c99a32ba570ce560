// Open sessions (daemon.md §6.1, §6.2): ids, identities, resolution of a
// Send/Stream to a session, and the files they are bound to. Lives in the
// host, so sessions survive a runtime reload.
import type { Message } from "../model/types.ts";
import { createNextSessionFile } from "../session/create.ts";
import { loadSessionFile, SessionFileError } from "../session/file.ts";
import { newSessionMeta, type SessionMeta } from "../session/jsonl.ts";
import { latestSessionFile } from "../session/names.ts";
import { resolveSessionPath } from "../session/paths.ts";
import { Mutex } from "./mutex.ts";

export class Session {
  readonly lock = new Mutex();
  /** The local owner's identity when no sender is given. */
  history: Message[];
  cwd?: string;
  lastUsed = 0;

  constructor(
    readonly id: bigint,
    readonly agent: string,
    readonly createdBy: string,
    public filePath: string,
    public meta: SessionMeta,
    history: Message[],
  ) {
    this.history = history;
  }

  /** True while a run (not a background title job) holds the session. */
  running = false;
  /** Aborted by Kill: cancels the session's tools (bash, pending ask_user). */
  readonly killed = new AbortController();
  /** Approve rules the user answered "always" to; forgotten with the open session (docs/approvals.md). */
  readonly alwaysApproved = new Set<string>();
}

export interface ResolveRequest {
  agent: string;
  sender?: string;
  session?: bigint;
  newChat?: boolean;
  resumeFile?: string;
  cwd?: string;
}

export class SessionNotFoundError extends Error {}
export class AgentNotRegisteredError extends Error {}

export const LOCAL_OWNER = "user";

export class SessionTable {
  private sessions = new Map<bigint, Session>();
  private nextId = 1n;
  private clock = 0;
  private opening = new Map<string, Promise<Session>>();

  constructor(private readonly sessionsDir: string) {}

  get(id: bigint): Session | undefined {
    return this.sessions.get(id);
  }

  list(): Session[] {
    return [...this.sessions.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Forgets an open session (the file stays). */
  kill(id: bigint): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.killed.abort(new Error(`session ${id} was killed`));
    return true;
  }

  /** Closes whatever session is bound to that file. */
  closeFile(path: string): void {
    for (const s of this.sessions.values()) if (s.filePath === path) this.kill(s.id);
  }

  touch(session: Session): void {
    session.lastUsed = ++this.clock;
  }

  /**
   * §6.2: explicit session, else resume_file, else new_chat, else the
   * identity's latest open session, else its newest file, else a new one.
   */
  async resolve(req: ResolveRequest, isRegistered: (agent: string) => boolean): Promise<Session> {
    if (req.session !== undefined) {
      const open = this.sessions.get(req.session);
      if (!open) throw new SessionNotFoundError(`session ${req.session} not found`);
      this.touch(open);
      return open;
    }
    const createdBy = req.sender ? req.sender : LOCAL_OWNER;
    let session: Session;
    if (req.resumeFile !== undefined) {
      const path = resolveSessionPath(this.sessionsDir, req.resumeFile);
      session = this.boundTo(path) ?? (await this.once(`file:${path}`, () => this.load(path)));
      if (!isRegistered(session.agent)) throw new AgentNotRegisteredError(`agent '${session.agent}' not registered`);
    } else {
      if (!isRegistered(req.agent)) throw new AgentNotRegisteredError(`agent '${req.agent}' not registered`);
      if (req.newChat) session = await this.create(req.agent, createdBy);
      else {
        session =
          this.latestOpen(req.agent, createdBy) ??
          (await this.once(`identity:${req.agent}\u0000${createdBy}`, () => this.resumeNewest(req.agent, createdBy)));
      }
    }
    if (req.cwd) session.cwd = req.cwd;
    this.touch(session);
    return session;
  }

  /**
   * Concurrent requests that would open the same session (first message of an
   * identity, or one file resumed twice at once) share one opening instead of
   * loading or creating it twice.
   */
  private once(key: string, open: () => Promise<Session>): Promise<Session> {
    let pending = this.opening.get(key);
    if (!pending) {
      pending = open().finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  async create(agent: string, createdBy: string): Promise<Session> {
    const meta = newSessionMeta(agent, createdBy);
    const path = await createNextSessionFile(this.sessionsDir, meta);
    return this.open(agent, createdBy, path, meta, []);
  }

  private async resumeNewest(agent: string, createdBy: string): Promise<Session> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const latest = await latestSessionFile(this.sessionsDir, agent, createdBy);
      if (!latest) break;
      try {
        return await this.load(latest);
      } catch (err) {
        // Renamed under us (a title landed between listing and reading): look again.
        if (err instanceof SessionFileError && err.reason === "missing") continue;
        // An unreadable newest file is left alone; the conversation starts afresh.
        break;
      }
    }
    return this.create(agent, createdBy);
  }

  private async load(path: string): Promise<Session> {
    const { meta, messages } = await loadSessionFile(path);
    return this.open(meta.agent, meta.created_by, path, meta, messages);
  }

  private open(agent: string, createdBy: string, path: string, meta: SessionMeta, history: Message[]): Session {
    const session = new Session(this.nextId++, agent, createdBy, path, meta, history);
    this.sessions.set(session.id, session);
    return session;
  }

  private latestOpen(agent: string, createdBy: string): Session | undefined {
    let best: Session | undefined;
    for (const s of this.sessions.values()) {
      if (s.agent === agent && s.createdBy === createdBy && (!best || s.lastUsed > best.lastUsed)) best = s;
    }
    return best;
  }

  private boundTo(path: string): Session | undefined {
    for (const s of this.sessions.values()) if (s.filePath === path) return s;
    return undefined;
  }
}
