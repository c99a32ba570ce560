// Typed protocol client: one method per operation over one connection.
// Request/response calls resolve to their one reply; streaming calls are async
// iterables that end at the operation's terminal frame (docs/protocol.md#streams).
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { replyPayload, type FrameEvent } from "./frame.ts";
import { decodeServerMessage, encodeClientMessage, type Request, type ServerCase, type ServerValue } from "./codec.ts";
import type { FrameChannel } from "./channel.ts";
import { DaemonError } from "./daemon-error.ts";
import type * as pb from "./gen/crabtalk_pb.ts";
import type { ServerMessage } from "./gen/crabtalk_pb.ts";

type Init<S extends keyof typeof pb> = (typeof pb)[S] extends GenMessage<infer M> ? MessageInitShape<GenMessage<M>> : never;

type ServerVariant = Exclude<ServerMessage["msg"], { case: undefined }>;

export { DaemonError };

export class Client {
  private inbox: Array<FrameEvent | "closed"> = [];
  private waiting: ((e: FrameEvent | "closed") => void) | undefined;

  constructor(private readonly channel: FrameChannel) {
    channel.onFrame((event) => this.deliver(event));
    channel.onClose(() => this.deliver("closed"));
  }

  close(): Promise<void> {
    return this.channel.close();
  }

  // ── lifecycle ──
  async ping(): Promise<void> {
    await this.call({ case: "ping", value: {} }, "pong");
  }
  getStats(): Promise<pb.DaemonStats> {
    return this.call({ case: "getStats", value: {} }, "stats");
  }
  /** The effective config as a JSON string, secrets redacted. */
  async getConfig(): Promise<string> {
    return (await this.call({ case: "getConfig", value: {} }, "config")).config;
  }
  async setConfig(config: string): Promise<void> {
    await this.call({ case: "setConfig", value: { config } }, "pong");
  }
  async reload(): Promise<void> {
    await this.call({ case: "reload", value: {} }, "pong");
  }
  /**
   * MCP servers for the runs of `sender` while this connection stays open
   * (docs/protocol.md "MCP servers of a sender"): resolves to their statuses;
   * the connection then serves nothing else.
   */
  async attachMcps(sender: string, servers: Init<"AttachedMcpServerSchema">[]): Promise<pb.McpInfo[]> {
    return (await this.call({ case: "attachMcps", value: { sender, servers } }, "mcpList")).mcps;
  }
  subscribeEvents(): AsyncGenerator<pb.AgentEventMsg> {
    return this.frames({ case: "subscribeEvents", value: {} }, "agentEvent", () => false);
  }

  // ── execution ──
  send(msg: Init<"SendMsgSchema">): Promise<pb.SendResponse> {
    return this.call({ case: "send", value: msg }, "response");
  }
  stream(msg: Init<"StreamMsgSchema">): AsyncGenerator<pb.StreamEvent> {
    return this.frames({ case: "stream", value: msg }, "stream", (e) => e.event.case === "end");
  }
  async replyToAsk(session: bigint, content: string): Promise<void> {
    await this.call({ case: "replyToAsk", value: { session, content } }, "pong");
  }

  // ── sessions and conversations ──
  async sessions(): Promise<pb.SessionInfo[]> {
    return (await this.call({ case: "sessions", value: {} }, "sessions")).sessions;
  }
  async kill(session: bigint): Promise<void> {
    await this.call({ case: "kill", value: { session } }, "pong");
  }
  async cancel(session: bigint): Promise<void> {
    await this.call({ case: "cancel", value: { session } }, "pong");
  }

  async compact(session: bigint): Promise<string> {
    return (await this.call({ case: "compact", value: { session } }, "compact")).summary;
  }
  async listConversations(agent = "", sender = ""): Promise<pb.ConversationInfo[]> {
    return (await this.call({ case: "listConversations", value: { agent, sender } }, "conversationList")).conversations;
  }
  /** The working context; with a `page`, up to `limit` of all the file's messages from `offset` (docs/protocol.md, History pages). */
  getConversationHistory(filePath: string, page?: { offset: number; limit: number }): Promise<pb.ConversationHistory> {
    return this.call({ case: "getConversationHistory", value: { filePath, ...page } }, "conversationHistory");
  }
  async deleteConversation(filePath: string): Promise<void> {
    await this.call({ case: "deleteConversation", value: { filePath } }, "pong");
  }
  async searchSessions(msg: Init<"SearchSessionsMsgSchema">): Promise<pb.SessionSearchHit[]> {
    return (await this.call({ case: "searchSessions", value: msg }, "sessionSearchResults")).hits;
  }

  // ── usage ──
  getUsage(msg: Init<"GetUsageMsgSchema">): Promise<pb.UsageReport> {
    return this.call({ case: "getUsage", value: msg }, "usageReport");
  }

  // ── providers and models ──
  async listProviders(): Promise<pb.ProviderInfo[]> {
    return (await this.call({ case: "listProviders", value: {} }, "providerList")).providers;
  }
  async setProvider(name: string, config: string): Promise<pb.ProviderInfo[]> {
    return (await this.call({ case: "setProvider", value: { name, config } }, "providerList")).providers;
  }
  async deleteProvider(name: string): Promise<void> {
    await this.call({ case: "deleteProvider", value: { name } }, "pong");
  }
  async setActiveModel(model: string): Promise<void> {
    await this.call({ case: "setActiveModel", value: { model } }, "pong");
  }
  async listProviderPresets(): Promise<pb.ProviderPresetInfo[]> {
    return (await this.call({ case: "listProviderPresets", value: {} }, "providerPresetList")).presets;
  }
  async listModels(): Promise<pb.ModelInfo[]> {
    return (await this.call({ case: "listModels", value: {} }, "modelList")).models;
  }
  async setEnabled(kind: pb.ResourceKind, name: string, enabled: boolean): Promise<void> {
    await this.call({ case: "setEnabled", value: { kind, name, enabled } }, "pong");
  }

  // ── MCP, skills, packages, services ──
  async listMcps(): Promise<pb.McpInfo[]> {
    return (await this.call({ case: "listMcps", value: {} }, "mcpList")).mcps;
  }
  async setLocalMcps(mcps: Init<"McpInfoSchema">[]): Promise<void> {
    await this.call({ case: "setLocalMcps", value: { mcps } }, "pong");
  }
  async listSkills(): Promise<pb.SkillInfo[]> {
    return (await this.call({ case: "listSkills", value: {} }, "skillList")).skills;
  }
  installPackage(msg: Init<"InstallPackageMsgSchema">): AsyncGenerator<pb.HubEvent> {
    return this.frames({ case: "installPackage", value: msg }, "hubEvent", (e) => e.event.case === "done");
  }
  uninstallPackage(pkg: string): AsyncGenerator<pb.HubEvent> {
    return this.frames({ case: "uninstallPackage", value: { package: pkg } }, "hubEvent", (e) => e.event.case === "done");
  }
  async listPackages(): Promise<pb.PackageInfo[]> {
    return (await this.call({ case: "listPackages", value: {} }, "packageList")).packages;
  }
  async searchHub(query: string): Promise<pb.HubPackageInfo[]> {
    return (await this.call({ case: "searchHub", value: { query } }, "hubPackageList")).packages;
  }
  async startService(name: string, force = false): Promise<void> {
    await this.call({ case: "startService", value: { name, force } }, "pong");
  }
  async stopService(name: string): Promise<void> {
    await this.call({ case: "stopService", value: { name } }, "pong");
  }
  async serviceLogs(name: string, lines = 0): Promise<string> {
    return (await this.call({ case: "serviceLogs", value: { name, lines } }, "serviceLogOutput")).content;
  }

  // ── agents ──
  async listAgents(): Promise<pb.AgentInfo[]> {
    return (await this.call({ case: "listAgents", value: {} }, "agentList")).agents;
  }
  getAgent(name: string): Promise<pb.AgentInfo> {
    return this.call({ case: "getAgent", value: { name } }, "agentInfo");
  }
  /** `prompt`, when given, becomes the agent's system prompt (local/agents/<name>.md). */
  createAgent(name: string, config: string, prompt?: string): Promise<pb.AgentInfo> {
    return this.call({ case: "createAgent", value: { name, config, prompt } }, "agentInfo");
  }
  updateAgent(name: string, config: string, prompt?: string): Promise<pb.AgentInfo> {
    return this.call({ case: "updateAgent", value: { name, config, prompt } }, "agentInfo");
  }
  async deleteAgent(name: string): Promise<void> {
    await this.call({ case: "deleteAgent", value: { name } }, "pong");
  }

  // ── memory ──
  async listMemory(): Promise<pb.MemoryEntryInfo[]> {
    return (await this.call({ case: "listMemory", value: {} }, "memoryList")).entries;
  }
  getMemory(name: string): Promise<pb.MemoryEntryInfo> {
    return this.call({ case: "getMemory", value: { name } }, "memoryEntry");
  }
  /** Best first, as the agents' recall ranks them; `limit` 0 = 10. */
  async searchMemory(query: string, limit = 0): Promise<pb.MemoryEntryInfo[]> {
    return (await this.call({ case: "searchMemory", value: { query, limit } }, "memoryList")).entries;
  }
  /** A new entry (an existing name is refused); `name` and `description` default to the content's first line. */
  addMemory(msg: Init<"AddMemoryMsgSchema">): Promise<pb.MemoryEntryInfo> {
    return this.call({ case: "addMemory", value: msg }, "memoryEntry");
  }
  async forgetMemory(name: string): Promise<void> {
    await this.call({ case: "forgetMemory", value: { name } }, "pong");
  }

  // ── cron ──
  createCron(msg: Init<"CreateCronMsgSchema">): Promise<pb.CronInfo> {
    return this.call({ case: "createCron", value: msg }, "cronInfo");
  }
  async deleteCron(id: bigint): Promise<void> {
    await this.call({ case: "deleteCron", value: { id } }, "pong");
  }
  async listCrons(): Promise<pb.CronInfo[]> {
    return (await this.call({ case: "listCrons", value: {} }, "cronList")).crons;
  }

  // ── remote access (docs/protocol.md "Remote access") ──
  /** A new token (`expiresInSecs` 0 = never); its secret is in the reply, this once. */
  createToken(msg: Init<"CreateTokenMsgSchema">): Promise<pb.TokenCreated> {
    return this.call({ case: "createToken", value: msg }, "tokenCreated");
  }
  async listTokens(): Promise<pb.TokenInfo[]> {
    return (await this.call({ case: "listTokens", value: {} }, "tokenList")).tokens;
  }
  async revokeToken(name: string): Promise<void> {
    await this.call({ case: "revokeToken", value: { name } }, "pong");
  }
  getRemoteStatus(): Promise<pb.RemoteStatus> {
    return this.call({ case: "getRemoteStatus", value: {} }, "remoteStatus");
  }
  /** A one-time link for a new device (`scope` "" = operate); its code is in the URL's #fragment. */
  createPairing(msg: Init<"CreatePairingMsgSchema">): Promise<pb.PairingCreated> {
    return this.call({ case: "createPairing", value: msg }, "pairingCreated");
  }

  // ── plumbing ──

  /** Sends one request and returns its single reply; an ErrorMsg throws DaemonError. */
  async call<S extends ServerCase>(request: Request, expect: S): Promise<ServerValue<S>> {
    await this.channel.send(encodeClientMessage(request));
    return this.expect(await this.nextReply(), expect);
  }

  /** Sends a streaming request and yields replies until `isLast` says so. */
  async *frames<S extends ServerCase>(request: Request, expect: S, isLast: (value: ServerValue<S>) => boolean): AsyncGenerator<ServerValue<S>> {
    await this.channel.send(encodeClientMessage(request));
    for (;;) {
      const value = this.expect(await this.nextReply(), expect);
      yield value;
      if (isLast(value)) return;
    }
  }

  private expect<S extends ServerCase>(msg: ServerVariant, expect: S): ServerValue<S> {
    if (msg.case === "error") throw new DaemonError(msg.value.code, msg.value.message);
    if (msg.case !== expect) throw new Error(`unexpected reply '${msg.case}', wanted '${expect}'`);
    return msg.value as ServerValue<S>;
  }

  private async nextReply(): Promise<ServerVariant> {
    const event = this.inbox.shift() ?? (await new Promise<FrameEvent | "closed">((r) => (this.waiting = r)));
    if (event === "closed") this.inbox.unshift("closed");
    const msg = decodeServerMessage(replyPayload(event)).msg;
    if (msg.case === undefined) throw new Error("empty server message");
    return msg;
  }

  private deliver(event: FrameEvent | "closed"): void {
    const waiter = this.waiting;
    if (waiter) {
      this.waiting = undefined;
      waiter(event);
    } else {
      this.inbox.push(event);
    }
  }
}
