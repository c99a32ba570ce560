// The history as the APIs with strictly alternating turns want it
// (Anthropic Messages, Gemini, Bedrock Converse; docs/agent-loop.md#model-request):
// system messages gathered into one system text; a user message, a tool
// result and an assistant step each made into the API's blocks by the
// adapter; consecutive blocks of one side joined into one turn (the results
// of a step and the user text after them are one user turn); no empty turns.
import type { AssistantMessage, ModelRequest, ToolMessage } from "./types.ts";

export interface Turn<Block> {
  /** The side: the user (user text and tool results) or the model. */
  side: "user" | "model";
  blocks: Block[];
}

export interface TurnBlocks<Block> {
  user: (text: string) => Block[];
  tool: (m: ToolMessage) => Block[];
  assistant: (m: AssistantMessage) => Block[];
}

export function alternatingTurns<Block>(request: ModelRequest, blocks: TurnBlocks<Block>): { system: string[]; turns: Turn<Block>[] } {
  const system: string[] = request.system ? [request.system] : [];
  const turns: Turn<Block>[] = [];
  const add = (side: Turn<Block>["side"], more: Block[]): void => {
    if (more.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.side === side) last.blocks.push(...more);
    else turns.push({ side, blocks: more });
  };
  for (const m of request.messages) {
    switch (m.role) {
      case "system":
        if (m.content) system.push(m.content);
        break;
      case "user":
        add("user", m.content ? blocks.user(m.content) : []);
        break;
      case "tool":
        add("user", blocks.tool(m));
        break;
      case "assistant":
        add("model", blocks.assistant(m));
        break;
    }
  }
  return { system, turns };
}
