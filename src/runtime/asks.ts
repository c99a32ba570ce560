// Pending ask_user calls per session (docs/tools.md#ask_user). Owned by the host so
// a reload does not lose them; one ReplyToAsk resolves every pending call of
// its session. Approval questions (docs/approvals.md) wait here too, each
// under its question text: only a reply that answers that exact text (which
// carries a secret id only the stream's client was shown) resolves one, and
// such a reply resolves nothing else.
import type { ToolOutcome } from "../agent/events.ts";

const CANCELLED = "ask_user cancelled: reply channel closed";

interface Pending {
  /** Set for approval questions: the question text the reply must answer. */
  key?: string;
  resolve(outcome: ToolOutcome): void;
}

export interface WaitOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Only a reply answering this question text resolves the wait (approvals). */
  key?: string;
  timedOut(): string;
  cancelled: string;
}

export class AskRegistry {
  private pending = new Map<bigint, Set<Pending>>();
  private arrivals = new Map<bigint, Set<() => void>>();

  /** Registers a pending question and waits for its reply, a timeout, or cancellation. */
  wait(session: bigint, headers: string[], timeoutMs: number, signal: AbortSignal): Promise<ToolOutcome> {
    return this.waitFor(session, {
      timeoutMs,
      signal,
      timedOut: () => `ask_user timed out after ${Math.round(timeoutMs / 1000)}s: no reply received for: ${headers.join("; ")}`,
      cancelled: CANCELLED,
    });
  }

  /** The general wait: resolves with the reply's content, or an error outcome on timeout or cancellation. */
  waitFor(session: bigint, options: WaitOptions): Promise<ToolOutcome> {
    const { timeoutMs, signal } = options;
    return new Promise<ToolOutcome>((resolve) => {
      const set = this.pending.get(session) ?? new Set<Pending>();
      this.pending.set(session, set);
      const finish = (outcome: ToolOutcome) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        set.delete(entry);
        if (set.size === 0 && this.pending.get(session) === set) this.pending.delete(session);
        resolve(outcome);
      };
      const entry: Pending = { key: options.key, resolve: finish };
      const timer = setTimeout(() => finish({ output: options.timedOut(), isError: true }), timeoutMs);
      const onAbort = () => finish({ output: options.cancelled, isError: true });
      if (signal.aborted) {
        finish({ output: options.cancelled, isError: true });
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      set.add(entry);
      for (const arrived of this.arrivals.get(session) ?? []) arrived();
    });
  }

  /**
   * Delivers a reply: to the approval questions it answers by their exact
   * text when there are any, else to every pending ask_user call of the
   * session. Returns how many got it.
   */
  reply(session: bigint, content: string): number {
    const set = this.pending.get(session);
    if (!set) return 0;
    const answers = answersByQuestion(content);
    const approvals = [...set].filter((e) => e.key !== undefined && typeof answers?.[e.key] === "string");
    if (approvals.length > 0) {
      for (const e of approvals) e.resolve({ output: answers![e.key!] as string, isError: false });
      return approvals.length;
    }
    const entries = [...set].filter((e) => e.key === undefined);
    for (const e of entries) e.resolve({ output: content, isError: false });
    return entries.length;
  }

  /** Like reply, but waits up to `graceMs` for a question to appear first. */
  async replyWhenPending(session: bigint, content: string, graceMs: number): Promise<number> {
    if (this.pending.has(session)) return this.reply(session, content);
    const arrivals = this.arrivals.get(session) ?? new Set<() => void>();
    this.arrivals.set(session, arrivals);
    let arrived!: () => void;
    const appeared = new Promise<void>((resolve) => (arrived = resolve));
    arrivals.add(arrived);
    const timer = setTimeout(arrived, graceMs);
    await appeared;
    clearTimeout(timer);
    arrivals.delete(arrived);
    if (arrivals.size === 0) this.arrivals.delete(session);
    return this.reply(session, content);
  }

  /** Cancels every pending call of a session (Kill). */
  cancel(session: bigint): void {
    for (const e of [...(this.pending.get(session) ?? [])]) e.resolve({ output: CANCELLED, isError: true });
  }

  hasPending(session: bigint): boolean {
    return this.pending.has(session);
  }
}

/** A reply's JSON object of question text → answer, if it is one. */
function answersByQuestion(content: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(content);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
