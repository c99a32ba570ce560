// One finished model round as usage accounting sees it, and where the runtime
// hands it: the daemon records it (docs/usage.md); the runtime only reports.
import type { Usage } from "../../model/types.ts";

export interface StepUsage {
  time: Date;
  agent: string;
  sender: string;
  session: bigint;
  /** Session file name (no directory) at the time of the step. */
  file: string;
  provider: string;
  model: string;
  usage: Usage;
  /** USD; undefined when the model has no price. */
  costUsd?: number;
}

export interface UsageRecorder {
  /** Records one step; never throws (a failed write is the recorder's to report). */
  record(step: StepUsage): Promise<void>;
  /** USD spent today (local day), over every run, priced steps only. */
  spentToday(): number;
}
