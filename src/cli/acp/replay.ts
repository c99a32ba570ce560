// session/load: the conversation sent again as session/update notifications
// before the load answers: its messages, and each past tool call as one
// `tool_call` with its final status and output (docs/protocol.md "Tool calls
// in history", docs/editors.md#what-maps-to-what).
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Client } from "../../protocol/client.ts";
import { pastCall } from "./tool-calls.ts";

const PAGE = 200;

export async function replayHistory(client: Client, filePath: string, send: (update: SessionUpdate) => Promise<void>): Promise<void> {
  let calls = 0;
  for (let offset = 0; ; ) {
    const page = await client.getConversationHistory(filePath, { offset, limit: PAGE });
    for (const m of page.messages) {
      const content = { type: "text" as const, text: m.content };
      if (m.content) await send(m.role === "user" ? { sessionUpdate: "user_message_chunk", content } : { sessionUpdate: "agent_message_chunk", content });
      // Ids of their own: a model's call ids need not be unique across a conversation.
      for (const call of m.toolCalls) await send(pastCall(`past-${++calls}`, call));
    }
    offset += page.messages.length;
    if (page.messages.length === 0 || offset >= page.total) return;
  }
}
