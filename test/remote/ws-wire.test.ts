// The protocol over the remote listener's WebSocket (docs/remote.md#the-wire):
// an operate token's Stream gets the frames the Unix socket gets; a read
// token is refused what is outside its scope (403) and goes on; a broken
// peer's text or oversize message closes with 1008; a revoked or expired
// token's open connection is closed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toJson } from "@bufbuild/protobuf";
import { StreamEventSchema, type StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { DaemonError } from "../../src/protocol/client.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { cleanup } from "../support/daemon.ts";
import { bearer, openWs, REMOTE_CONFIG, remoteUrl, upgradeStatus, wsClient, wsUrl } from "../support/remote.ts";
import { until } from "../support/until.ts";
import { MAX_FRAME_BYTES } from "../../src/protocol/frame.ts";

let env: LlmDaemon;
let base: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  env = await startLlmDaemon("openai", { extraConfig: `\n${REMOTE_CONFIG}` });
  base = await remoteUrl(env.daemon);
  const local = await env.daemon.client();
  for (const scope of ["read", "operate", "admin"]) tokens[scope] = (await local.createToken({ name: `t-${scope}`, scope })).token;
  await local.close();
});

afterAll(async () => {
  await env?.stop();
  if (env) cleanup(env.daemon.home);
});

/** A stream's frames with what differs between two runs (the session id) taken out. */
function shape(events: StreamEvent[]): unknown[] {
  return events.map((e) => {
    const json = toJson(StreamEventSchema, e) as Record<string, Record<string, unknown>>;
    for (const v of Object.values(json)) if (v && typeof v === "object") delete v.session;
    return json;
  });
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe("the wire", () => {
  test("an operate token's Stream gets the same frames as the Unix socket", async () => {
    const turn = { text: "hello from the fake model, in pieces", thinking: "thinking first" };
    env.fake.script(turn);
    const local = await env.daemon.client();
    const overSocket = await collect(local.stream({ agent: "crab", content: "hi", newChat: true }));
    await local.close();
    env.fake.script(turn);
    const { client } = await wsClient(wsUrl(base), bearer(tokens.operate));
    const overWs = await collect(client.stream({ agent: "crab", content: "hi", newChat: true }));
    await client.close();
    expect(overWs.length).toBeGreaterThan(2);
    expect(overWs[0].event.case).toBe("start");
    expect(overWs.at(-1)?.event.case).toBe("end");
    expect(shape(overWs)).toEqual(shape(overSocket));
  });

  test("a read token's Send gets 403 naming the scope, and the connection still answers Ping", async () => {
    const { client, channel } = await wsClient(wsUrl(base), bearer(tokens.read));
    const err = await client.send({ agent: "crab", content: "hi" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DaemonError);
    expect((err as DaemonError).code).toBe(403);
    expect((err as DaemonError).message).toContain("'operate'");
    await client.ping();
    const admin = await client.listTokens().catch((e: DaemonError) => e);
    expect((admin as DaemonError).code).toBe(403);
    expect((admin as DaemonError).message).toContain("'admin'");
    expect((await client.getStats()).uptimeSecs).toBeGreaterThanOrEqual(0n);
    expect(channel.closed).toBe(false);
    await client.close();
  });

  test("an operate token answers asks only of sessions it ran in", async () => {
    const local = await env.daemon.client();
    const other = await local.send({ agent: "crab", content: "someone else's run", newChat: true });
    await local.close();
    const { client } = await wsClient(wsUrl(base), bearer(tokens.operate));
    const err = await client.replyToAsk(other.session, "yes").catch((e: DaemonError) => e);
    expect((err as DaemonError).code).toBe(403);
    expect((err as DaemonError).message).toContain("did not run it");
    // An admin token answers any (here: nothing pending, so 404, past the scope check).
    const { client: admin } = await wsClient(wsUrl(base), bearer(tokens.admin));
    const adminErr = await admin.replyToAsk(other.session, "yes").catch((e: DaemonError) => e);
    expect((adminErr as DaemonError).code).toBe(404);
    // Its own session: past the scope check too.
    const own = await client.send({ agent: "crab", content: "mine", newChat: true });
    const ownErr = await client.replyToAsk(own.session, "yes").catch((e: DaemonError) => e);
    expect((ownErr as DaemonError).code).toBe(404);
    await client.close();
    await admin.close();
  });

  test("a text message closes the connection with 1008", async () => {
    const channel = await openWs(wsUrl(base), bearer(tokens.read));
    channel.ws.send("ping");
    await until(() => channel.closed, { what: "the close after a text message" });
    expect(channel.closeCode).toBe(1008);
  });

  test("a message over 16 MiB closes the connection with 1008", async () => {
    const channel = await openWs(wsUrl(base), bearer(tokens.read));
    channel.ws.send(new Uint8Array(MAX_FRAME_BYTES + 1));
    await until(() => channel.closed, { what: "the close after an oversize message", timeoutMs: 20_000 });
    expect(channel.closeCode).toBe(1008);
  });

  test("an undecodable binary message gets ErrorMsg 400 and the connection goes on", async () => {
    const { client, channel } = await wsClient(wsUrl(base), bearer(tokens.read));
    await channel.send(new Uint8Array([0xff, 0xff, 0xff]));
    // The 400 is the reply to that message: the next call reads it first.
    const err = await client.ping().catch((e: DaemonError) => e);
    expect((err as DaemonError).code).toBe(400);
    await client.ping();
    await client.close();
  });

  test("revoking a token closes its open connection at once and refuses the next upgrade", async () => {
    const local = await env.daemon.client();
    const { token } = await local.createToken({ name: "doomed", scope: "read" });
    const { client, channel } = await wsClient(wsUrl(base), bearer(token));
    await client.ping();
    expect((await local.getRemoteStatus()).connections.find((c) => c.tokenName === "doomed")?.count).toBe(1);
    await local.revokeToken("doomed");
    await until(() => channel.closed, { what: "the revoked token's connection to close" });
    expect(channel.closeCode).toBe(1008);
    expect((await upgradeStatus(base, { authorization: `Bearer ${token}` })).status).toBe(401);
    await local.close();
  });

  test("an expired token is refused before the upgrade, and its open connection is closed at expiry", async () => {
    const local = await env.daemon.client();
    const created = await local.createToken({ name: "brief", scope: "read", expiresInSecs: 2n });
    const { channel } = await wsClient(wsUrl(base), bearer(created.token));
    await until(() => channel.closed, { what: "the expired token's connection to close", timeoutMs: 15_000 });
    expect(channel.closeCode).toBe(1008);
    expect(channel.closeReason).toContain("expired");
    const refused = await upgradeStatus(base, { authorization: `Bearer ${created.token}` });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain("expired");
    await local.close();
  });
});
