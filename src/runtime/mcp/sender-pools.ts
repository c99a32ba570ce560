// MCP servers attached to one sender's runs (docs/mcp.md#servers-from-an-editor):
// an editor's servers, connected for the runs of its session for as long as
// the connection that attached them stays open. The newest attachment of a
// sender is the one its runs use.
import type { McpPool } from "./types.ts";

export interface SenderMcps {
  pool: McpPool;
  /** Their env and header values: redacted from what their tools answer. */
  secrets: readonly string[];
}

export class SenderPools {
  private readonly bySender = new Map<string, SenderMcps[]>();

  /** Adds an attachment; the returned function removes it (the pool is the caller's to close). */
  attach(sender: string, mcps: SenderMcps): () => void {
    const list = this.bySender.get(sender) ?? [];
    list.push(mcps);
    this.bySender.set(sender, list);
    return () => {
      const left = (this.bySender.get(sender) ?? []).filter((m) => m !== mcps);
      if (left.length > 0) this.bySender.set(sender, left);
      else this.bySender.delete(sender);
    };
  }

  forSender(sender: string | undefined): SenderMcps | undefined {
    return sender === undefined ? undefined : this.bySender.get(sender)?.at(-1);
  }
}
