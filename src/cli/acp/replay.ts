// session/load: the conversation's messages sent again as session/update
// notifications before the load answers. GetConversationHistory carries user
// and assistant text only (docs/protocol.md#history-pages), so past tool calls
// are not replayed (docs/editors.md#limits).
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Client } from "../../protocol/client.ts";

const PAGE = 200;

export async function replayHistory(client: Client, filePath: string, send: (update: SessionUpdate) => Promise<void>): Promise<void> {
  for (let offset = 0; ; ) {
    const page = await client.getConversationHistory(filePath, { offset, limit: PAGE });
    for (const m of page.messages) {
      if (!m.content) continue; // an assistant turn that only called tools
      const content = { type: "text" as const, text: m.content };
      await send(m.role === "user" ? { sessionUpdate: "user_message_chunk", content } : { sessionUpdate: "agent_message_chunk", content });
    }
    offset += page.messages.length;
    if (page.messages.length === 0 || offset >= page.total) return;
  }
}
