// What chat says when it continues a conversation: which one, how long, and how to leave it.
import { withClient, type ConnectOptions } from "../connect.ts";
import type { ChatState } from "./state.ts";

/** "resumed: <title>, N messages — /new to start over", or undefined for a fresh start. */
export async function describeResumed(state: ChatState, conn: ConnectOptions): Promise<string | undefined> {
  if (state.newChat || state.session !== undefined) return undefined;
  const history = await withClient(conn, async (c) => {
    // Without --resume, the daemon continues the newest conversation of this agent and sender.
    const file = state.resumeFile ?? (await c.listConversations(state.agent, state.sender || "user"))[0]?.filePath;
    return file ? c.getConversationHistory(file) : undefined;
  });
  if (!history || history.messages.length === 0) return undefined;
  const n = history.messages.length;
  return `resumed: ${history.title || "untitled conversation"}, ${n === 1 ? "1 message" : `${n} messages`} — /new to start over`;
}
