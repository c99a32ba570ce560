// The memory that partly received frames may hold, shared by every connection
// of a listener set: one client cannot take it all, many cannot exceed it.
export class FrameBudget {
  private used = 0;

  /** `onRelease` hears of every abandoned or closed partial frame's bytes going back. */
  constructor(
    readonly maxBytes: number,
    private readonly onRelease: (bytes: number) => void = () => {},
  ) {}

  get usedBytes(): number {
    return this.used;
  }

  /** A holder going from `from` to `to` bytes; false (nothing changed) when growing would pass the cap. */
  resize(from: number, to: number): boolean {
    const next = this.used - from + to;
    if (to > from && next > this.maxBytes) return false;
    this.used = Math.max(next, 0);
    return true;
  }

  /** A holder that gave up its `bytes` (its connection closed or abandoned the frame). */
  release(bytes: number): void {
    this.used = Math.max(this.used - bytes, 0);
    this.onRelease(bytes);
  }
}

export interface FrameLimits {
  budget: FrameBudget;
  /** How long a frame may take to arrive once its first byte has. */
  timeoutMs: number;
}
