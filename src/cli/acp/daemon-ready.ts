// The daemon `crabtalk acp` talks to: when none answers, it is started the way
// `crabtalk start` starts it, and that is said on stderr, never stdout.
import { daemonAnswers, startDaemon } from "../daemon-control.ts";
import { note } from "./log.ts";

/** Resolves once a daemon answers; started at most once per process. */
export class DaemonReady {
  private ready: Promise<void> | undefined;

  ensure(): Promise<void> {
    this.ready ??= (async () => {
      if (await daemonAnswers()) return;
      note("no daemon answers: starting it as crabtalk start would");
      await startDaemon(note);
    })();
    // A failed start is tried again by the next request instead of failing forever.
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }
}
