// The initialize answer: ACP protocol version 1 (the only one this agent
// speaks: the client's own when it asked for 1, else our latest, as the spec
// says), and what this agent can do (docs/editors.md).
import { PROTOCOL_VERSION, type InitializeResponse } from "@agentclientprotocol/sdk";
import { VERSION } from "../../version.ts";

export function initializeResponse(): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      // The editor's stdio and HTTP servers are attached to the session's runs (docs/editors.md#mcp-servers-from-the-editor).
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {} },
    },
    authMethods: [],
    agentInfo: { name: "crabtalk", title: "crabtalk", version: VERSION },
  };
}
