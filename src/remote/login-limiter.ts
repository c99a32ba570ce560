// Failed logins per client address (docs/remote.md#what-is-refused-and-why):
// after a few, each failure locks the address out for a delay that doubles,
// up to a ceiling; a request during the lock is answered 429 without its
// token being looked at, so guessing goes no faster than the delays allow.
// Refusals are logged at most once a second, with how many were not.

/** Failures forgiven before the first delay (a typo or two). */
const FREE_FAILURES = 3;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 30_000;
/** An address with no failure for this long starts over. */
const FORGET_MS = 10 * 60_000;
/** Addresses tracked at once; the oldest goes first. */
const MAX_ADDRESSES = 4096;

interface Record {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

export interface LimiterLog {
  warn(msg: string, fields?: { [key: string]: string | number | boolean }): void;
}

export class FailedLogins {
  private readonly byAddress = new Map<string, Record>();
  private lastLogged = 0;
  private unlogged = 0;

  constructor(
    private readonly log: LimiterLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds this address must still wait; 0: it may try. */
  waitFor(address: string): number {
    const r = this.byAddress.get(address);
    if (!r) return 0;
    const now = this.now();
    if (now - r.lastFailure > FORGET_MS) {
      this.byAddress.delete(address);
      return 0;
    }
    return Math.max(0, r.lockedUntil - now);
  }

  failed(address: string, why: string): void {
    const now = this.now();
    const r = this.byAddress.get(address) ?? { failures: 0, lockedUntil: 0, lastFailure: 0 };
    if (now - r.lastFailure > FORGET_MS) r.failures = 0;
    r.failures++;
    r.lastFailure = now;
    const over = r.failures - FREE_FAILURES;
    if (over > 0) r.lockedUntil = now + Math.min(FIRST_DELAY_MS * 2 ** Math.min(over - 1, 20), MAX_DELAY_MS);
    this.byAddress.delete(address);
    this.byAddress.set(address, r);
    if (this.byAddress.size > MAX_ADDRESSES) this.byAddress.delete(this.byAddress.keys().next().value as string);
    this.note(address, why, r.failures);
  }

  /** A request turned away during the lock: logged like a failure, not counted as one. */
  turnedAway(address: string): void {
    this.note(address, "locked out", this.byAddress.get(address)?.failures ?? 0);
  }

  succeeded(address: string): void {
    this.byAddress.delete(address);
  }

  /** One line a second at most; the ones in between are counted in the next. */
  private note(address: string, why: string, failures: number): void {
    const now = this.now();
    if (now - this.lastLogged < 1000) {
      this.unlogged++;
      return;
    }
    const fields = { address, why, failures_from_address: failures };
    this.log.warn("refused a remote login", this.unlogged > 0 ? { ...fields, also_refused: this.unlogged } : fields);
    this.lastLogged = now;
    this.unlogged = 0;
  }
}
