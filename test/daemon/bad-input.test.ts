// Bad input on a connection (docs/protocol.md#frames): each case gets its answer,
// never disturbs other connections, and the daemon keeps answering Ping.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { CLIENT, SERVER, RawConnection, errorOf, frame, lenField, serverVariant } from "../support/raw-proto.ts";

let daemon: TestDaemon;
let bystander: RawConnection;

beforeAll(async () => {
  daemon = await startDaemon();
  // A connection opened before all the abuse; it must still work at the end.
  bystander = await RawConnection.open({ path: daemon.socket });
});

afterAll(async () => {
  bystander.destroy();
  expect(await daemon.stop()).toBe(0);
  cleanup(daemon.home);
});

const ping = frame(lenField(CLIENT.ping, []));

async function expectPong(conn: RawConnection): Promise<void> {
  conn.write(ping);
  expect(serverVariant((await conn.readFrame())!).tag).toBe(SERVER.pong);
}

async function daemonStillAnswers(): Promise<void> {
  const fresh = await RawConnection.open({ path: daemon.socket });
  await expectPong(fresh);
  fresh.destroy();
  expect(daemon.proc.exitCode).toBeNull();
}

test("a frame announcing more than 16 MiB gets ErrorMsg{400} and the connection is closed", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  const header = new Uint8Array(4);
  new DataView(header.buffer).setUint32(0, 16 * 1024 * 1024 + 1, false);
  conn.write(header);
  conn.write(new Uint8Array(1000)); // the start of a body that is never read
  const err = errorOf((await conn.readFrame())!);
  expect(err.code).toBe(400);
  expect(err.message).toBe("frame too large: 16777217 bytes (max 16777216)");
  expect(await conn.waitClosed()).toBe(true);
  await daemonStillAnswers();
});

test("a 4 GiB length over TCP is refused the same way without buffering", async () => {
  const conn = await RawConnection.open({ port: daemon.port });
  conn.write([0xff, 0xff, 0xff, 0xff]);
  const err = errorOf((await conn.readFrame())!);
  expect(err.code).toBe(400);
  expect(err.message).toContain("frame too large: 4294967295 bytes");
  expect(await conn.waitClosed()).toBe(true);
  await daemonStillAnswers();
});

test("a frame of exactly 16 MiB is accepted (read and decoded)", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  // ClientMessage{ping} followed by an unknown field padding it to exactly 16 MiB.
  const max = 16 * 1024 * 1024;
  const pingField = lenField(CLIENT.ping, []);
  const padTag = [0xca, 0x0f]; // field 505, wire type 2 (unknown to the schema)
  const padLen = max - pingField.length - padTag.length - 4; // 4-byte varint length
  const len = [(padLen & 0x7f) | 0x80, ((padLen >> 7) & 0x7f) | 0x80, ((padLen >> 14) & 0x7f) | 0x80, padLen >> 21];
  const payload = new Uint8Array(max);
  payload.set(pingField, 0);
  payload.set([...padTag, ...len], pingField.length);
  conn.write(frame(payload));
  expect(serverVariant((await conn.readFrame(15000))!).tag).toBe(SERVER.pong);
  conn.destroy();
});

test("a payload that does not decode gets ErrorMsg{400} and the connection stays usable", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  conn.write(frame([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])); // broken varint key
  const err = errorOf((await conn.readFrame())!);
  expect(err.code).toBe(400);
  expect(err.message).toStartWith("cannot decode ClientMessage");
  await expectPong(conn);
  conn.destroy();
});

test("a wrong wire type for a known field is a decode error, answered with 400", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  conn.write(frame([0x0a, 0x05, 0x12, 0x03])); // send=1 whose body is truncated
  expect(errorOf((await conn.readFrame())!).code).toBe(400);
  await expectPong(conn);
  conn.destroy();
});

test("a zero-length frame is an empty ClientMessage: 400 'empty client message'", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  conn.write([0, 0, 0, 0]);
  expect(errorOf((await conn.readFrame())!)).toEqual({ code: 400, message: "empty client message" });
  await expectPong(conn);
  conn.destroy();
});

test("a variant unknown to the daemon (future tag 45) is an empty client message", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  conn.write(frame(lenField(45, [])));
  expect(errorOf((await conn.readFrame())!)).toEqual({ code: 400, message: "empty client message" });
  await expectPong(conn);
  conn.destroy();
});

test("a raw ListPackages (tag 22) answers an empty package_list (tag 14)", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  conn.write(frame(lenField(22, []))); // ListPackages: every operation is implemented now
  expect(serverVariant((await conn.readFrame())!)).toMatchObject({ tag: 14, bytes: new Uint8Array() });
  await expectPong(conn);
  conn.destroy();
});

test("a client that disconnects mid-header or mid-frame costs nothing else", async () => {
  for (const bytes of [
    [0, 0],
    [0, 0, 1, 0, 0x01, 0x02, 0x03],
  ]) {
    const conn = await RawConnection.open({ path: daemon.socket });
    conn.write(bytes);
    await Bun.sleep(20);
    conn.destroy();
  }
  await daemonStillAnswers();
});

test("a client that sends requests and never reads does not stall the daemon", async () => {
  const conn = await RawConnection.open({ path: daemon.socket });
  const many = new Uint8Array(ping.length * 20000);
  for (let i = 0; i < 20000; i++) many.set(ping, i * ping.length);
  conn.write(many); // 20k requests whose replies nobody reads
  await Bun.sleep(200);
  await daemonStillAnswers();
  conn.destroy();
  await daemonStillAnswers();
});

test("many abrupt connections in parallel leave the daemon healthy", async () => {
  const conns = await Promise.all(Array.from({ length: 50 }, () => RawConnection.open({ port: daemon.port })));
  conns.forEach((c, i) => c.write(i % 2 ? [0xff, 0xff] : frame([0xff, 0xff, 0xff])));
  conns.forEach((c) => c.destroy());
  await daemonStillAnswers();
});

test("the connection opened before all of this still works", async () => {
  await expectPong(bystander);
});

test("a reply that would exceed 16 MiB is never sent: ErrorMsg{500} instead, and the connection stays usable", async () => {
  // A description past a frame: GetConfig cannot be answered whole.
  // (Conversation history, pages and listings are bounded by themselves: docs/sessions.md#large-conversations.)
  const description = "x".repeat(17 * 1024 * 1024);
  const big = await startDaemon({ config: `[system.crab]\ndescription = "${description}"\n` });
  try {
    const conn = await RawConnection.open({ path: big.socket });
    conn.write(frame(lenField(31, []))); // GetConfig{}
    const err = errorOf((await conn.readFrame(15000))!);
    expect(err.code).toBe(500);
    expect(err.message).toMatch(/^reply too large: \d+ bytes \(max 16777216\)$/);
    await expectPong(conn);
    conn.destroy();
  } finally {
    await big.stop();
    cleanup(big.home);
  }
});
