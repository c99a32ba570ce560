// A protocol client for the fast CLI path: the same transport and framing as
// src/protocol/client.ts, with the hand-written codec (src/protocol/fast), and
// only the operations the fast commands use.
import { replyPayload, type FrameEvent } from "../../protocol/frame.ts";
import { activeSessionIds, ClientMessage, decode, encode, ServerMessage, type Msg } from "../../protocol/fast/codec.ts";
import { DaemonError } from "../../protocol/daemon-error.ts";
import type { AgentInfo, DaemonStats, SessionInfo, StreamEvent, StreamMsg } from "../../protocol/gen/crabtalk_pb.ts";
import { connect } from "../../transport/connect.ts";
import type { FramedConnection } from "../../transport/connection.ts";
import { locate, tcpEndpoint, unreachable, versionFrom, versionWarning, type ConnectOptions } from "../endpoint.ts";

type Variant = { case: string; value: Msg };

/**
 * Requests may be pipelined: the daemon answers the requests of one
 * connection in order (docs/protocol.md#connection-rules), so each call
 * takes its place in line when it sends and the replies are handed out in
 * that order.
 */
export class FastClient {
  private inbox: Array<FrameEvent | "closed"> = [];
  /** Calls waiting for their reply, in the order they sent their requests. */
  private waiting: ((e: FrameEvent | "closed") => void)[] = [];

  private constructor(private readonly channel: FramedConnection) {
    channel.onFrame((event) => this.deliver(event));
    channel.onClose(() => this.deliver("closed"));
  }

  /** Connects as connectClient does; `warn` gets the version-mismatch line, if any. */
  static async open(options: ConnectOptions, warn: (line: string) => void): Promise<FastClient> {
    const { paths, unix } = locate(options);
    // The version file is read while connecting: a thread-pool read need not wait for the socket.
    const version = readText(paths.versionFile);
    const endpoint = unix ?? tcpEndpoint(paths, await readText(paths.portFile));
    let client: FastClient;
    try {
      client = new FastClient(await connect(endpoint));
    } catch {
      throw unreachable(endpoint);
    }
    const warning = versionWarning(versionFrom(await version));
    if (warning) warn(warning);
    return client;
  }

  /**
   * Hangs up at once. Every reply the fast commands wait for has been read by
   * then, so there is nothing to flush or drain, and a short command need not
   * wait a round trip for the daemon's side of a graceful close.
   */
  close(): Promise<void> {
    this.channel.abort();
    return Promise.resolve();
  }

  async ping(): Promise<void> {
    await this.call({ case: "ping", value: { $typeName: "crabtalk.protocol.Ping" } }, "pong");
  }

  async getStats(): Promise<DaemonStats> {
    const value = { $typeName: "crabtalk.protocol.GetStats" };
    return (await this.call({ case: "getStats", value }, "stats")) as unknown as DaemonStats;
  }

  async sessions(): Promise<SessionInfo[]> {
    const value = { $typeName: "crabtalk.protocol.Sessions" };
    return ((await this.call({ case: "sessions", value }, "sessions")) as unknown as { sessions: SessionInfo[] }).sessions;
  }

  /** The ids of the sessions running a run now: the session list, without the rest of it. */
  async activeSessions(): Promise<bigint[]> {
    const reply = this.nextPayload();
    await this.send({ case: "sessions", value: { $typeName: "crabtalk.protocol.Sessions" } });
    const payload = await reply;
    const ids = activeSessionIds(payload);
    if (ids) return ids;
    this.expect(this.decodeReply(payload), "sessions"); // throws: an error, or some other reply
    return [];
  }

  async getAgent(name: string): Promise<AgentInfo> {
    const value = { $typeName: "crabtalk.protocol.GetAgentMsg", name };
    return (await this.call({ case: "getAgent", value }, "agentInfo")) as unknown as AgentInfo;
  }

  /** The StreamMsg's events up to and including its end, shaped as protobuf-es shapes them. */
  async *stream(request: Omit<Partial<StreamMsg>, "$typeName">): AsyncGenerator<StreamEvent> {
    const value = { $typeName: "crabtalk.protocol.StreamMsg", agent: "", content: "", newChat: false, ...request };
    let reply = this.nextPayload();
    await this.send({ case: "stream", value });
    for (;;) {
      const event = this.expect(this.decodeReply(await reply), "stream") as unknown as StreamEvent;
      yield event;
      if (event.event.case === "end") return;
      reply = this.nextPayload();
    }
  }

  private async call(request: Variant, expect: string): Promise<Msg> {
    const reply = this.nextPayload();
    await this.send(request);
    return this.expect(this.decodeReply(await reply), expect);
  }

  private send(request: Variant): Promise<void> {
    return this.channel.send(encode(ClientMessage, { $typeName: ClientMessage.typeName, msg: request }));
  }

  private expect(msg: Variant, expect: string): Msg {
    if (msg.case === "error") throw new DaemonError(msg.value.code as number, msg.value.message as string);
    if (msg.case !== expect) throw new Error(`unexpected reply '${msg.case}', wanted '${expect}'`);
    return msg.value;
  }

  /**
   * The next reply in line, its place taken now (before the request is sent).
   * A send that fails leaves it unread: its failure is then the send's.
   */
  private nextPayload(): Promise<Uint8Array> {
    const next = this.inbox.shift();
    const event = next !== undefined ? Promise.resolve(next) : new Promise<FrameEvent | "closed">((r) => this.waiting.push(r));
    const payload = event.then((e) => {
      if (e === "closed") this.inbox.unshift("closed");
      return replyPayload(e);
    });
    payload.catch(() => {});
    return payload;
  }

  private decodeReply(payload: Uint8Array): Variant {
    const msg = decode(ServerMessage, payload).msg as { case?: string; value: Msg };
    // Variants this codec does not read come out as no case (a daemon never sends them here).
    if (msg.case === undefined) throw new Error("empty server message");
    return msg as Variant;
  }

  private deliver(event: FrameEvent | "closed"): void {
    if (event === "closed") {
      // Every call still waiting gets the close, and so does every later one.
      for (const waiter of this.waiting.splice(0)) waiter(event);
      this.inbox.push(event);
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(event);
    else this.inbox.push(event);
  }
}

/**
 * A small file's text, mapped rather than read: Bun.mmap is synchronous and
 * native (no thread pool, no node:fs; issue 11). Undefined when it cannot be
 * read; an empty file (which cannot be mapped) is "", as a read gives.
 */
function readText(file: string): Promise<string | undefined> {
  try {
    return Promise.resolve(utf8.decode(Bun.mmap(file)));
  } catch (err) {
    const empty = (err as { code?: string }).code === "EINVAL" && Bun.file(file).size === 0;
    return Promise.resolve(empty ? "" : undefined);
  }
}

const utf8 = new TextDecoder();
