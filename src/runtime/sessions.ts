// Open sessions (docs/sessions.md#identity-and-ids, docs/sessions.md#resume): ids, identities, resolution of a
// Send/Stream to a session, and the files they are bound to. Lives in the
// host, so sessions survive a runtime reload.
import type { Message } from "../model/types.ts";
import { createNextSessionFile } from "../session/create.ts";
import { loadSessionFile, SessionFileError } from "../session/file.ts";
import { newSessionMeta, type SessionMeta } from "../session/jsonl.ts";
import { latestSessionFile } from "../session/names.ts";
import { resolveSessionPath } from "../session/paths.ts";
import { InFlight } from "./in-flight.ts";
import { Mutex } from "./mutex.ts";
import { ParkedSessions } from "./parked-sessions.ts";

/** Runs begun in this process, for run ids. */
let runCount = 0;

export class Session {
  readonly lock = new Mutex();
  /** The working history; undefined while unloaded (the file holds it). */
  private messages: Message[] | undefined;
  private countWhileUnloaded = 0;
  cwd?: string;
  lastUsed = 0;
  /** Wall-clock time of the last resolve or run, for unloading idle sessions. */
  lastActive = Date.now();

  constructor(
    readonly id: bigint,
    readonly agent: string,
    readonly createdBy: string,
    public filePath: string,
    public meta: SessionMeta,
    /** Undefined: unloaded (the next run reads the file, and `meta` with it). */
    history: Message[] | undefined,
  ) {
    this.messages = history;
  }

  get history(): Message[] {
    if (!this.messages) throw new Error(`session ${this.id} is unloaded: call ensureLoaded first`);
    return this.messages;
  }

  set history(messages: Message[]) {
    this.messages = messages;
  }

  get loaded(): boolean {
    return this.messages !== undefined;
  }

  get messageCount(): number {
    return this.messages?.length ?? this.countWhileUnloaded;
  }

  /** Drops the history from memory; the next run reads it back from the file. */
  unload(): void {
    if (!this.messages) return;
    this.countWhileUnloaded = this.messages.length;
    this.messages = undefined;
  }

  /** Reads the history back from the session file after an unload (as a restart would). */
  async ensureLoaded(): Promise<void> {
    for (;;) {
      if (this.messages) return;
      const path = this.filePath;
      try {
        const { meta, messages } = await loadSessionFile(path);
        this.meta = meta;
        this.messages ??= messages;
        this.lastActive = Date.now();
        return;
      } catch (err) {
        // A title renamed the file while we read: read it again under its new name.
        if (!(err instanceof SessionFileError && err.reason === "missing" && this.filePath !== path)) throw err;
      }
    }
  }

  /** Aborted by Kill: stops the run in progress, its tools (bash, pending ask_user) included. */
  readonly killed = new AbortController();
  /** The run in progress: aborted by Cancel. */
  private run: AbortController | undefined;
  /** Its stop signal (Kill or Cancel), made once per run: several layers of a turn ask for it. */
  private runStop: AbortSignal | undefined;

  /** The run in progress, unique in this daemon; undefined between runs. Tool processes carry it (docs/protocol.md "Runs"). */
  runId: string | undefined;

  /** True while a run (not a background title job) holds the session. */
  get running(): boolean {
    return this.run !== undefined;
  }

  /** Aborts when the run in progress must stop: Cancel, or Kill of the session. */
  get stopSignal(): AbortSignal {
    if (!this.run) return this.killed.signal;
    return (this.runStop ??= AbortSignal.any([this.killed.signal, this.run.signal]));
  }

  /**
   * A run takes the session (its holder has the session's lock): from now on
   * a Cancel stops it, even before its first model request.
   */
  beginRun(): void {
    this.run = new AbortController();
    this.runStop = undefined;
    this.runId = `${this.id}#${++runCount}`;
  }

  endRun(): void {
    this.run = undefined;
    this.runStop = undefined;
    this.runId = undefined;
  }

  /** Stops the run in progress, if any; true when there was one. */
  cancelRun(reason: string): boolean {
    if (!this.run || this.run.signal.aborted) return false;
    this.run.abort(new Error(reason));
    return true;
  }
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

const identityKey = (agent: string, createdBy: string) => `${agent}\u0000${createdBy}`;

export class SessionTable {
  private sessions = new Map<bigint, Session>();
  /** Sessions idle past the limit: out of memory, their ids still valid. */
  private parked: ParkedSessions;
  /**
   * Each identity's latest open session (the one resolve falls back to):
   * looked up per turn, so it is kept here rather than found by a scan of
   * every open session (thousands on a long-running daemon).
   */
  private latest = new Map<string, Session>();
  private nextId = 1n;
  private clock = 0;
  private opening = new Map<string, Promise<Session>>();
  /** Titles renaming session files (docs/sessions.md#titles): a resume by file waits for them. */
  readonly titleRenames = new InFlight();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly sessionsDir: string) {
    this.parked = new ParkedSessions(sessionsDir);
  }

  /**
   * Unloads sessions idle longer than `secs` (0: never): their ids stay valid
   * and their next message reloads them from the file, so memory does not
   * grow with the number of conversations a long-running daemon has seen.
   * An unloaded session leaves the table (Sessions no longer lists it) unless
   * it holds what only memory has: "always" approvals.
   */
  unloadIdleAfter(secs: number, onUnload?: (count: number) => void): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    if (secs <= 0) return;
    const idleMs = secs * 1000;
    const sweep = () => {
      const count = this.unloadIdle(idleMs);
      if (count > 0) onUnload?.(count);
    };
    this.sweeper = setInterval(sweep, Math.max(1000, Math.min(idleMs / 4, 60_000)));
    this.sweeper.unref();
  }

  /** Unloads every session idle for `idleMs` with no run holding or awaiting it; returns how many. */
  unloadIdle(idleMs: number, now = Date.now()): number {
    let unloaded = 0;
    for (const s of this.sessions.values()) {
      if (s.running || s.lock.locked || now - s.lastActive < idleMs) continue;
      if (s.alwaysApproved.size === 0) {
        this.sessions.delete(s.id);
        this.parked.park(s);
      } else if (!s.loaded) continue;
      s.unload();
      unloaded++;
    }
    if (unloaded > 0) this.rebuildLatest();
    return unloaded;
  }

  /** Each identity's latest open session again, in one pass (after parking, which may take many at once). */
  private rebuildLatest(): void {
    this.latest.clear();
    for (const s of this.sessions.values()) {
      const key = identityKey(s.agent, s.createdBy);
      const current = this.latest.get(key);
      if (!current || s.lastUsed > current.lastUsed) this.latest.set(key, s);
    }
  }

  /** The session with that id, open again (unloaded: its next run reads the file) if it had been unloaded. */
  get(id: bigint): Session | undefined {
    return this.sessions.get(id) ?? this.unpark(id);
  }

  private unpark(id: bigint): Session | undefined {
    const p = this.parked.take(id);
    if (!p) return undefined;
    // `meta` is read from the file with the history, before any run uses it.
    const session = new Session(p.id, p.agent, p.createdBy, p.filePath, newSessionMeta(p.agent, p.createdBy), undefined);
    session.cwd = p.cwd;
    session.lastUsed = p.lastUsed;
    this.sessions.set(id, session);
    const key = identityKey(p.agent, p.createdBy);
    const current = this.latest.get(key);
    if (!current || session.lastUsed > current.lastUsed) this.latest.set(key, session);
    return session;
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
    if (!session) return this.parked.take(id) !== undefined;
    this.sessions.delete(id);
    const key = identityKey(session.agent, session.createdBy);
    if (this.latest.get(key) === session) {
      const next = this.scanOpen(session.agent, session.createdBy);
      if (next) this.latest.set(key, next);
      else this.latest.delete(key);
    }
    session.killed.abort(new Error(`session ${id} was killed`));
    return true;
  }

  /** Closes whatever session is bound to that file. */
  closeFile(path: string): void {
    for (const s of this.sessions.values()) if (s.filePath === path) this.kill(s.id);
    for (const id of this.parked.boundTo(path)) this.parked.take(id);
  }

  touch(session: Session): void {
    session.lastUsed = ++this.clock;
    session.lastActive = Date.now();
    // The clock only grows: the session touched last is its identity's latest.
    if (this.sessions.get(session.id) === session) this.latest.set(identityKey(session.agent, session.createdBy), session);
  }

  /**
   * docs/sessions.md#resume: explicit session, else resume_file, else new_chat, else the
   * identity's latest open session, else its newest file, else a new one.
   */
  async resolve(req: ResolveRequest, isRegistered: (agent: string) => boolean): Promise<Session> {
    if (req.session !== undefined) {
      const open = this.get(req.session);
      if (!open) throw new SessionNotFoundError(`session ${req.session} not found`);
      this.touch(open);
      return open;
    }
    const createdBy = req.sender ? req.sender : LOCAL_OWNER;
    let session: Session;
    if (req.resumeFile !== undefined) {
      const path = resolveSessionPath(this.sessionsDir, req.resumeFile);
      // A file listed under a title's new name may not be bound to it yet.
      await this.titleRenames.settled();
      session = this.boundTo(path) ?? (await this.once(`file:${path}`, () => this.load(path)));
      if (!isRegistered(session.agent)) throw new AgentNotRegisteredError(`agent '${session.agent}' not registered`);
    } else {
      if (!isRegistered(req.agent)) throw new AgentNotRegisteredError(`agent '${req.agent}' not registered`);
      if (req.newChat) session = await this.create(req.agent, createdBy);
      else {
        session =
          this.latestOpen(req.agent, createdBy) ?? (await this.once(`identity:${req.agent}\u0000${createdBy}`, () => this.resumeNewest(req.agent, createdBy)));
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
    // Never touched yet (lastUsed 0): the latest only when the identity has no other.
    const key = identityKey(agent, createdBy);
    if (!this.latest.has(key)) this.latest.set(key, session);
    return session;
  }

  /** The identity's session used last, open or parked (a parked one is opened again). */
  private latestOpen(agent: string, createdBy: string): Session | undefined {
    const open = this.latest.get(identityKey(agent, createdBy));
    const parked = this.parked.latest(agent, createdBy);
    return parked && (!open || parked.lastUsed > open.lastUsed) ? this.unpark(parked.id) : open;
  }

  /** The open session of that identity used last (first opened among never-used ones). */
  private scanOpen(agent: string, createdBy: string): Session | undefined {
    let best: Session | undefined;
    for (const s of this.sessions.values()) {
      if (s.agent === agent && s.createdBy === createdBy && (!best || s.lastUsed > best.lastUsed)) best = s;
    }
    return best;
  }

  private boundTo(path: string): Session | undefined {
    for (const s of this.sessions.values()) if (s.filePath === path) return s;
    const [parked] = this.parked.boundTo(path);
    return parked === undefined ? undefined : this.unpark(parked);
  }
}
