// One-at-a-time access: a session's runs queue here instead of interleaving.
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  get locked(): boolean {
    return this.holders > 0;
  }

  async lock(): Promise<() => void> {
    this.holders++;
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      release();
    };
  }
}
