// An ACP prompt (content blocks) as the one message crabtalk's Stream takes:
// text as is, an embedded resource's text under its URI, a resource link as
// its URI (docs/editors.md#what-maps-to-what).
import type { ContentBlock } from "@agentclientprotocol/sdk";

export function promptText(blocks: ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource":
        if ("text" in block.resource) parts.push(`${block.resource.uri}:\n\`\`\`\n${block.resource.text}\n\`\`\``);
        else parts.push(`(attached binary resource ${block.resource.uri}, not readable as text)`);
        break;
      case "resource_link":
        parts.push(`(referenced: ${block.uri})`);
        break;
      default:
        // Images and audio are not advertised in promptCapabilities; a client that sends them anyway is told here.
        parts.push(`(an attached ${block.type} was left out: crabtalk acp takes text only)`);
    }
  }
  return parts.join("\n\n");
}
