// Gemini's long answers come in hops: a chunk may carry a `continuationToken`
// (a checkpoint), and an answer that ends at one (finishReason CONTINUATION, or
// none) is resumed by sending the same request again with that token. The
// `@google/genai` SDK does this on its own (its "automatic continuation", on
// by default); these are its rules, so the adapter behaves as it did
// (docs/providers.md#google--gemini):
// - a hop that ends at a new checkpoint is resumed from it; so is one whose
//   connection dropped after one;
// - a hop that dropped before any checkpoint or content of its own is tried
//   again from where it started, at most 3 times in a row;
// - a request the API refused (an HTTP error before any chunk) or a caller's
//   abort is not resumed;
// - usage is summed over the hops; a finish reason that only marks a
//   checkpoint being resumed is not passed on.
// Unlike the SDK, at most MAX_HOPS requests are made for one answer.
import { ProviderError } from "../errors.ts";
import type { GenerateContentResponse, UsageMetadata } from "./wire.ts";

const CONTINUATION = "CONTINUATION";
const MAX_RECONNECTS_WITHOUT_PROGRESS = 3;
export const MAX_HOPS = 100;

/** One request of the answer: resumed from `token` when given. */
export type OpenHop = (token: string | undefined) => AsyncIterable<GenerateContentResponse>;

const resumable = (finishReason: string | undefined) => finishReason === undefined || finishReason === CONTINUATION;

/** A request the API refused with an HTTP status (before the body, or as an error event). */
const refused = (err: unknown) => err instanceof ProviderError && err.kind === "http";

const isAbort = (err: unknown, signal: AbortSignal | undefined) => signal?.aborted === true || (err instanceof Error && err.name === "AbortError");

interface Hop {
  startToken?: string;
  token?: string;
  finishReason?: string;
  promptFeedback: boolean;
  yieldedContent: boolean;
  receivedAny: boolean;
  usage?: UsageMetadata;
}

/** The chunks of one streamed answer, over as many hops as it takes. */
export async function* continuedStream(open: OpenHop, signal: AbortSignal | undefined): AsyncGenerator<GenerateContentResponse> {
  let resumeToken: string | undefined;
  let reconnects = 0;
  let usageBefore: UsageMetadata | undefined;
  let lastError: { error: unknown } | undefined;
  for (let hops = 1; ; hops++) {
    if (hops > MAX_HOPS) throw new ProviderError(`provider error: the answer did not finish within ${MAX_HOPS} continuations`, { kind: "stream" });
    const hop: Hop = { startToken: resumeToken, promptFeedback: false, yieldedContent: false, receivedAny: false };
    let hopError: { error: unknown } | undefined;
    try {
      for await (const chunk of open(resumeToken)) {
        observe(hop, chunk, usageBefore);
        yield chunk;
      }
    } catch (error) {
      // The first request's failures are the answer's: nothing was resumed yet.
      if (hops === 1 && !hop.receivedAny) throw error;
      hopError = { error };
    }
    if (hop.usage) usageBefore = hop.usage;
    if (hopError && (isAbort(hopError.error, signal) || (refused(hopError.error) && !hop.receivedAny))) throw hopError.error;
    const madeProgress = hop.yieldedContent || (hop.token !== undefined && hop.token !== hop.startToken);
    if (hopError) lastError = hopError;
    else if (madeProgress) lastError = undefined;
    [resumeToken, reconnects] = nextToken(hop, reconnects);
    if (resumeToken && !hop.promptFeedback && resumable(hop.finishReason)) continue;
    if (hopError) throw hopError.error;
    // The stream gave up without a finish: the last failure since it made progress is the answer's.
    if (hop.finishReason === undefined && !hop.promptFeedback && lastError) throw lastError.error;
    return;
  }
}

/** Records a chunk: its usage made the answer's so far, an intermediate finish reason dropped. */
function observe(hop: Hop, chunk: GenerateContentResponse, usageBefore: UsageMetadata | undefined): void {
  hop.receivedAny = true;
  if (chunk.promptFeedback !== undefined && chunk.promptFeedback !== null) hop.promptFeedback = true;
  if (chunk.usageMetadata) {
    if (usageBefore) chunk.usageMetadata = sumUsage(usageBefore, chunk.usageMetadata);
    hop.usage = chunk.usageMetadata;
  }
  const candidate = chunk.candidates?.[0];
  if (!candidate) return;
  if (candidate.content?.parts && candidate.content.parts.length > 0) hop.yieldedContent = true;
  if (candidate.finishReason !== undefined) hop.finishReason = candidate.finishReason;
  if (candidate.continuationToken) hop.token = candidate.continuationToken;
  else if (candidate.finishReason !== undefined && !resumable(candidate.finishReason)) hop.token = undefined;
  if (candidate.finishReason !== undefined && hop.token && resumable(candidate.finishReason)) delete candidate.finishReason;
}

/** Where the next hop starts, and the count of hops in a row that made no progress. */
function nextToken(hop: Hop, reconnects: number): [string | undefined, number] {
  const fresh = hop.token !== undefined && hop.token !== hop.startToken;
  if (hop.finishReason !== undefined || hop.promptFeedback) {
    // The API ended the hop: resume only from a new checkpoint it ended at.
    return [hop.finishReason === CONTINUATION && !hop.promptFeedback && fresh ? hop.token : undefined, 0];
  }
  if (fresh) return [hop.token, 0];
  if (hop.yieldedContent || reconnects >= MAX_RECONNECTS_WITHOUT_PROGRESS) return [undefined, reconnects];
  return [hop.startToken, reconnects + 1];
}

/** A whole (non-streamed) answer over as many requests as it takes: parts joined, usage summed, the last finish reason. */
export async function continuedAnswer(request: (token: string | undefined) => Promise<GenerateContentResponse>): Promise<GenerateContentResponse> {
  const answers: GenerateContentResponse[] = [];
  let token: string | undefined;
  do {
    if (answers.length === MAX_HOPS) throw new ProviderError(`provider error: the answer did not finish within ${MAX_HOPS} continuations`, { kind: "other" });
    const answer = await request(token);
    answers.push(answer);
    const candidate = answer.candidates?.[0];
    token = candidate?.continuationToken && resumable(candidate.finishReason) ? candidate.continuationToken : undefined;
  } while (token);
  return answers.length === 1 ? answers[0]! : joined(answers);
}

function joined(answers: GenerateContentResponse[]): GenerateContentResponse {
  const parts = answers.flatMap((a) => a.candidates?.[0]?.content?.parts ?? []);
  const usage = answers.reduce<UsageMetadata | undefined>(
    (sum, a) => (a.usageMetadata ? (sum ? sumUsage(sum, a.usageMetadata) : a.usageMetadata) : sum),
    undefined,
  );
  const out: GenerateContentResponse = { candidates: [{ content: { parts }, finishReason: answers.at(-1)?.candidates?.[0]?.finishReason }] };
  if (usage) out.usageMetadata = usage;
  return out;
}

/** Each hop is a request of its own, billed as such: the counts add up. */
function sumUsage(a: UsageMetadata, b: UsageMetadata): UsageMetadata {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const before = out[key];
    out[key] = typeof value === "number" && typeof before === "number" ? before + value : (value ?? before);
  }
  return out as UsageMetadata;
}
