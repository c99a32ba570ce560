// Streamed and sent turns start at most one per turn of the event loop. A turn's start (session,
// history, the adapter building and sending its request) runs without a break
// until its request is sent; at 100 simultaneous starts, the first answers
// would otherwise wait behind all 100 starts before a chunk could be
// forwarded. Between two starts the loop polls its sockets, so chunks of the
// runs already going are forwarded first. Starts keep their order.
export class TurnGate {
  private readonly waiting: Array<() => void> = [];
  /** A start went through during this turn of the loop. */
  private busy = false;

  /** Resolves when this turn may start: at once if none started in this turn of the loop. */
  enter(): Promise<void> {
    if (!this.busy && this.waiting.length === 0) {
      this.busy = true;
      setImmediate(this.next);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Number of starts waiting for their turn of the loop. */
  get queued(): number {
    return this.waiting.length;
  }

  private readonly next = (): void => {
    const start = this.waiting.shift();
    if (!start) {
      this.busy = false;
      return;
    }
    start();
    setImmediate(this.next);
  };
}

/** The daemon's one gate: every Stream and Send request passes it before its session is resolved. */
export const turnGate = new TurnGate();
