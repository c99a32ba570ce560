// Assembles one streamed answer: text, reasoning and tool-call fragments
// merged per index (docs/agent-loop.md#a-step step 1).
import type { StreamChunk, ToolCall, Usage } from "../model/types.ts";

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export class AnswerAssembler {
  text = "";
  reasoning = "";
  /** The chunks `text` and `reasoning` were concatenated from (base/text-pieces.ts). */
  readonly textPieces: string[] = [];
  readonly reasoningPieces: string[] = [];
  /** Anthropic's signature of the reasoning: needed to send it back (kept in memory only). */
  reasoningSignature: string | undefined;
  finishReason: string | undefined;
  usage: Usage | undefined;
  private calls = new Map<number, PartialCall>();

  /** Folds one chunk in. */
  add(chunk: StreamChunk): void {
    switch (chunk.type) {
      case "text":
        this.text += chunk.text;
        this.textPieces.push(chunk.text);
        break;
      case "thinking":
        this.reasoning += chunk.text;
        this.reasoningPieces.push(chunk.text);
        if (chunk.signature) this.reasoningSignature = chunk.signature;
        break;
      case "tool_call": {
        const call = this.calls.get(chunk.index) ?? { id: "", name: "", arguments: "" };
        if (chunk.id) call.id = chunk.id;
        if (chunk.name) call.name = chunk.name;
        if (chunk.arguments) call.arguments += chunk.arguments;
        this.calls.set(chunk.index, call);
        break;
      }
      case "usage":
        this.usage = chunk.usage;
        break;
      case "finish":
        this.finishReason = chunk.reason;
        break;
    }
  }

  /** Names of calls whose name is known so far (for the early notification). */
  namedCalls(): string[] {
    return this.orderedCalls()
      .filter((c) => c.name !== "")
      .map((c) => c.name);
  }

  toolCalls(): ToolCall[] {
    return this.orderedCalls()
      .filter((c) => c.name !== "")
      .map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments }));
  }

  private orderedCalls(): PartialCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  }
}
