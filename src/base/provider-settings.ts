// What the model layer needs to know of one provider (docs/config.md#providername). The
// daemon maps its `[provider.<name>]` config onto this; the model layer never
// reads config itself. In src/base/ because the config schema (the kinds) and
// `crabtalk setup` use it too (docs/architecture.md). What differs by kind is
// in provider-kinds.ts.
import type { ProviderKind } from "./provider-kinds.ts";

export interface ProviderSettings {
  /** Config name of the provider (`[provider.<name>]`). */
  name: string;
  kind: ProviderKind;
  apiKey?: string;
  baseUrl?: string;
  /** Model names this provider serves. */
  models: string[];
  /** Retries of transient failures; default 2, 0 = none. */
  maxRetries?: number;
  /** Per-attempt timeout in seconds; default 30, 0 = none. */
  timeoutSecs?: number;
  /** Longest silence between two chunks of a stream, in seconds; default 120, 0 = none. */
  streamIdleTimeoutSecs?: number;
  /** Cap on one answer in bytes; default 4 MiB, 0 = none. */
  maxAnswerBytes?: number;
  /** Azure API version. */
  apiVersion?: string;
  /** Bedrock region. */
  region?: string;
  /** Bedrock access key id. */
  accessKey?: string;
  /** Bedrock secret key. */
  secretKey?: string;
  /** Context windows in tokens by model name, over the family defaults. */
  contextLimits?: Record<string, number>;
}

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_TIMEOUT_SECS = 30;

export function maxRetriesOf(p: ProviderSettings): number {
  return p.maxRetries ?? DEFAULT_MAX_RETRIES;
}

export function timeoutSecsOf(p: ProviderSettings): number {
  return p.timeoutSecs ?? DEFAULT_TIMEOUT_SECS;
}

const DEFAULT_STREAM_IDLE_TIMEOUT_SECS = 120;
const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export function maxAnswerBytesOf(p: ProviderSettings): number {
  return p.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
}

export function streamLimitsOf(p: ProviderSettings): { idleMs: number; maxAnswerBytes: number } {
  return { idleMs: (p.streamIdleTimeoutSecs ?? DEFAULT_STREAM_IDLE_TIMEOUT_SECS) * 1000, maxAnswerBytes: maxAnswerBytesOf(p) };
}
