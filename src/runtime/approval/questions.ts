// Approval questions are posted while the agent loop waits for its tools, so
// they cannot be yielded by the loop: they queue here and are interleaved
// with the loop's events on their way to the stream.
import type { AskQuestion } from "../tools/ask-user.ts";

export type QuestionEvent = { type: "ask_user"; questions: AskQuestion[] };

export class QuestionQueue {
  private readonly items: AskQuestion[] = [];
  private wake: (() => void) | undefined;

  post(question: AskQuestion): void {
    this.items.push(question);
    this.wake?.();
  }

  /**
   * The generator's events with each posted question yielded as soon as it
   * is posted, also while the generator is busy; returns what it returns.
   */
  async *interleave<T, R>(source: AsyncGenerator<T, R>): AsyncGenerator<T | QuestionEvent, R> {
    let pending: Promise<IteratorResult<T, R>> | undefined;
    let posted: Promise<undefined> | undefined;
    for (;;) {
      const question = this.items.shift();
      if (question) {
        yield { type: "ask_user", questions: [question] };
        continue;
      }
      pending ??= source.next(); // may post a question before it returns
      if (this.items.length > 0) continue;
      posted ??= new Promise<undefined>((resolve) => {
        this.wake = () => {
          posted = undefined;
          resolve(undefined);
        };
      });
      const next = await Promise.race([pending, posted]);
      if (next === undefined) continue;
      pending = undefined;
      if (next.done) return next.value;
      yield next.value;
    }
  }
}
