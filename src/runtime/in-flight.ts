// Work under way that readers must not overtake: a title renaming a session
// file (docs/sessions.md#titles). A reader that awaits `settled()` sees the
// file under the name a directory listing already shows.
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  /** Runs `work` tracked until it settles; resolves as it does. */
  async track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    try {
      return await work;
    } finally {
      this.pending.delete(work);
    }
  }

  /** Settles once everything tracked now has settled (at once when nothing is). */
  async settled(): Promise<void> {
    if (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
