// Approval of dangerous tool calls (docs/approvals.md). Before a call that
// matches one of the run's approve rules runs, the user of the streamed
// session is asked through the ask_user round trip; only their "yes" or
// "always" lets it run. Nothing the model writes can answer: the question
// text carries a random id that only the stream's client is shown.
import { randomBytes } from "../../base/random-bytes.ts";
import type { ToolOutcome } from "../../agent/events.ts";
import type { ToolCall } from "../../model/types.ts";
import { APPROVAL_HEADER, APPROVE_ALWAYS, APPROVE_ONCE, REFUSE } from "../../protocol/approval.ts";
import type { AskRegistry } from "../asks.ts";
import type { AskQuestion } from "../tools/ask-user.ts";
import { mainArgument, matchingRules } from "../../base/approval-rules.ts";

/** The streamed session that answers approval questions, for its own run and the tasks it delegates. */
export interface ApprovalChannel {
  session: bigint;
  /** Rules the user answered "always" to, for the life of that open session. */
  remembered: Set<string>;
  /** Shows a question on the session's stream. */
  post(question: AskQuestion): void;
  /** Aborted when the stream's client goes away or the session is killed. */
  signal: AbortSignal;
}

/** The approval context of one run. */
export interface ApprovalScope {
  /** The agent's own rules plus those of every agent that delegated to it. */
  rules: readonly string[];
  /** Undefined: nobody can answer (Send, cron, a task of a non-streamed run). */
  channel?: ApprovalChannel;
  /** The agents whose delegation led to this run, outermost first. */
  chain: readonly string[];
}

/** Longest main argument shown for approval; a longer call is refused unseen rather than approved unread. */
export const APPROVAL_SHOW_LIMIT = 64 * 1024;

const NO_CLIENT = "this run has no client that can answer (a Send request, a cron run, or a task delegated by one)";

/** What a task delegated by a run inherits: its rules, its channel, and the delegating agent in the chain. */
export function delegatedScope(parent: ApprovalScope, parentAgent: string): ApprovalScope {
  return { ...parent, chain: [...parent.chain, parentAgent] };
}

/** A run's scope: its agent's rules added to what it inherits (a top-level run inherits nothing but its channel). */
export function runScope(agentRules: readonly string[], inherited: ApprovalScope | undefined, channel?: ApprovalChannel): ApprovalScope {
  const base = inherited ?? { rules: [], channel, chain: [] };
  return { ...base, rules: [...new Set([...base.rules, ...agentRules])] };
}

/**
 * Asks when the call needs approval. Resolves to undefined when it may run,
 * else to the refusal the model gets as the call's result.
 */
export async function approveCall(
  asks: AskRegistry,
  scope: ApprovalScope,
  agent: string,
  call: ToolCall,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ToolOutcome | undefined> {
  const matched = matchingRules(scope.rules, call);
  if (matched.length === 0) return undefined;
  const ruleText = matched.map((r) => JSON.stringify(r)).join(", ");
  const refused = (why: string): ToolOutcome => ({
    output: `${call.name} was not run: ${why} (approve rule ${ruleText}). Do not retry the same call; tell the user what you wanted to do.`,
    isError: true,
  });
  const channel = scope.channel;
  if (!channel) return refused(`it needs the user's approval and ${NO_CLIENT}`);
  if (matched.every((r) => channel.remembered.has(r))) return undefined;
  const size = Buffer.byteLength(mainArgument(call));
  if (size > APPROVAL_SHOW_LIMIT) {
    return refused(`it is too long to show for approval (${size} bytes, at most ${APPROVAL_SHOW_LIMIT}); split it into shorter calls`);
  }

  const question = approvalQuestion(call, [...scope.chain, agent], matched);
  const signal = AbortSignal.any([channel.signal, options.signal]);
  const timeoutSecs = Math.round(options.timeoutMs / 1000);
  const wait = asks.waitFor(channel.session, {
    key: question.question,
    timeoutMs: options.timeoutMs,
    signal,
    timedOut: () => `no answer to the approval question within ${timeoutSecs}s`,
    cancelled: "the approval question was cancelled (the client went away, or the session was killed or ended)",
  });
  channel.post(question);
  const reply = await wait;
  if (reply.isError) return refused(reply.output);
  const answer = reply.output.trim();
  switch (answer.toLowerCase()) {
    case APPROVE_ALWAYS:
      for (const r of matched) channel.remembered.add(r);
      return undefined;
    case APPROVE_ONCE:
      return undefined;
    case REFUSE:
      return refused("the user said no");
    default:
      return refused(`the user did not approve it and answered: ${JSON.stringify(answer)}`);
  }
}

function approvalQuestion(call: ToolCall, agents: string[], rules: string[]): AskQuestion {
  const who = agents.length > 1 ? `${agents.at(-1)} (delegated by ${agents.slice(0, -1).reverse().join(" ← ")})` : agents[0];
  const what = call.name === "bash" ? "run this command" : "make this call";
  const shown = visible(mainArgument(call))
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
  const id = randomBytes(16).toString("hex");
  return {
    question: `Agent ${visible(who)} wants ${visible(call.name)} to ${what}:\n${shown}\nAllow it? (approval ${id})`,
    header: APPROVAL_HEADER,
    options: [
      { label: APPROVE_ONCE, description: "run it this once" },
      { label: REFUSE, description: "refuse; the agent is told it was not run" },
      { label: APPROVE_ALWAYS, description: `allow ${rules.map((r) => JSON.stringify(r)).join(", ")} for the rest of this session` },
    ],
    multi_select: false,
  };
}

/**
 * Control and direction-changing characters written as escapes, so a command
 * cannot disguise itself on the user's terminal (colours, carriage returns,
 * right-to-left overrides, invisible characters). Newlines and tabs stay.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu, (ch) => {
    const code = ch.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
