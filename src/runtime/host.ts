// The host: what outlives a runtime reload — open sessions, pending ask_user
// replies, the delegation limit — and runs delegated tasks (docs/tools.md#delegate).
import { AskRegistry } from "./asks.ts";
import { runTurn } from "./run.ts";
import { runtimeFor, type Runtime } from "./runtime.ts";
import { Semaphore } from "./semaphore.ts";
import { SessionTable } from "./sessions.ts";
import type { TaskInheritance, TaskResult, TaskRunner } from "./tools/delegate.ts";
import { Holdings } from "./usage/reservations.ts";
import type { UsageRecorder } from "./usage/step.ts";
import type { ConversationIndex } from "./search/conversation-index.ts";
import { ToolProcesses } from "./tool-processes.ts";
import { SILENT_LOG, type RuntimeLog } from "../base/runtime-log.ts";

export const DELEGATE_IDENTITY = "delegate";

export class Host implements TaskRunner {
  readonly asks = new AskRegistry();
  readonly sessions: SessionTable;
  readonly tasks = new Semaphore(4);
  /** Processes started by tools, for confining their connections (docs/security.md). */
  readonly toolProcesses = new ToolProcesses();
  taskTimeoutSecs = 300;
  /** Where each model round's usage goes (the daemon's ledger); none in bare runtimes. */
  usage?: UsageRecorder;
  /** Worst cases held for model requests in flight under a budget, across every run (docs/usage.md). */
  readonly inFlight = new Holdings();
  /** Conversation search, told of every message a run appends (the daemon's); none in bare runtimes. */
  searchIndex?: ConversationIndex;
  /** The current runtime; swapped atomically on reload. */
  runtime!: Runtime;

  /**
   * Where every run reports what goes wrong in the background (persistence,
   * fallbacks, titles), delegated runs included: the daemon's log, given once.
   */
  readonly log: RuntimeLog;

  constructor(sessionsDir: string, log: RuntimeLog = SILENT_LOG) {
    this.sessions = new SessionTable(sessionsDir);
    this.log = log;
  }

  configureTasks(maxConcurrent: number, taskTimeoutSecs: number): void {
    this.tasks.setLimit(maxConcurrent);
    this.taskTimeoutSecs = taskTimeoutSecs;
  }

  async runTask(agent: string, message: string, sender: string | undefined, parent: AbortSignal, from: TaskInheritance = {}): Promise<TaskResult> {
    const runtime = await runtimeFor(this.runtime, agent);
    if (!runtime.agents.has(agent)) return { error: `agent '${agent}' not registered` };
    let release: () => void;
    try {
      release = await this.tasks.acquire(parent);
    } catch {
      return { error: "task cancelled before it started" };
    }
    const secs = this.taskTimeoutSecs;
    const timeout = secs > 0 ? AbortSignal.timeout(secs * 1000) : new AbortController().signal;
    const signal = AbortSignal.any([parent, timeout]);
    try {
      const session = await this.sessions.create(agent, DELEGATE_IDENTITY);
      const unlock = await session.lock.lock();
      session.beginRun();
      try {
        const turn = runTurn(runtime, this, session, {
          content: message,
          sender,
          signal,
          stopTools: signal,
          streaming: false,
          title: false,
          approval: from.approval,
          parentSpend: from.spend,
        });
        let next = await turn.next();
        while (!next.done) next = await turn.next();
        const outcome = next.value;
        if (timeout.aborted) return { error: `task timed out after ${secs}s` };
        if (outcome.stopReason === "error" || outcome.stopReason === "aborted") return { error: outcome.error ?? "task failed" };
        return { result: outcome.finalText };
      } finally {
        session.endRun();
        unlock();
        this.sessions.kill(session.id);
      }
    } catch (err) {
      return { error: (err as Error).message };
    } finally {
      release();
    }
  }
}
