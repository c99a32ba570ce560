// At most N holders at once; the rest wait in arrival order.
export class Semaphore {
  private waiting: Array<() => void> = [];
  private held = 0;

  constructor(private limit: number) {}

  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    this.pump();
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.held >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener("abort", abort);
          resolve();
        };
        const abort = () => {
          this.waiting = this.waiting.filter((w) => w !== go);
          reject(signal?.reason ?? new Error("aborted"));
        };
        signal?.addEventListener("abort", abort, { once: true });
        this.waiting.push(go);
      });
    } else {
      this.held++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.held < this.limit && this.waiting.length > 0) {
      this.held++;
      this.waiting.shift()!();
    }
  }
}
