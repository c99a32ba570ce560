// Pending ask_user calls per session (daemon.md §10.3). Owned by the host so
// a reload does not lose them; one ReplyToAsk resolves every pending call of
// its session.
import type { ToolOutcome } from "../agent/events.ts";

interface Pending {
  resolve(outcome: ToolOutcome): void;
}

export class AskRegistry {
  private pending = new Map<bigint, Set<Pending>>();
  private arrivals = new Map<bigint, Set<() => void>>();

  /** Registers a pending question and waits for its reply, a timeout, or cancellation. */
  wait(session: bigint, headers: string[], timeoutMs: number, signal: AbortSignal): Promise<ToolOutcome> {
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
      const entry: Pending = { resolve: finish };
      const timer = setTimeout(
        () =>
          finish({
            output: `ask_user timed out after ${Math.round(timeoutMs / 1000)}s: no reply received for: ${headers.join("; ")}`,
            isError: true,
          }),
        timeoutMs,
      );
      const onAbort = () => finish({ output: "ask_user cancelled: reply channel closed", isError: true });
      signal.addEventListener("abort", onAbort, { once: true });
      set.add(entry);
      for (const arrived of this.arrivals.get(session) ?? []) arrived();
    });
  }

  /** Delivers `content` to every pending call of the session; returns how many got it. */
  reply(session: bigint, content: string): number {
    const set = this.pending.get(session);
    if (!set) return 0;
    const entries = [...set];
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
    for (const e of [...(this.pending.get(session) ?? [])]) {
      e.resolve({ output: "ask_user cancelled: reply channel closed", isError: true });
    }
  }

  hasPending(session: bigint): boolean {
    return this.pending.has(session);
  }
}
