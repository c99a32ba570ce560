// The daemon's side of a connection writes the frames of one turn of the
// event loop together: same bytes, same order, fewer writes; a close still
// delivers every frame before the FIN.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Socket } from "bun";
import { framedHandlers, type ConnectionSlot } from "../../src/transport/handlers.ts";
import type { FramedConnection } from "../../src/transport/connection.ts";
import { cleanup } from "../support/daemon.ts";

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A corked server on a fresh Unix socket and a raw client recording every chunk it reads. */
async function pair(): Promise<{ server: FramedConnection; chunks: Uint8Array[]; ended: Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-cork-"));
  const path = join(dir, "s.sock");
  let accepted!: (c: FramedConnection) => void;
  const conn = new Promise<FramedConnection>((resolve) => (accepted = resolve));
  const listener = Bun.listen<ConnectionSlot>({ unix: path, socket: framedHandlers((c) => accepted(c), { cork: true }), data: {} });
  const chunks: Uint8Array[] = [];
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const client: Socket = await Bun.connect({
    unix: path,
    socket: { data: (_s, chunk) => void chunks.push(new Uint8Array(chunk)), end: () => end(), close: () => end() },
  });
  stops.push(() => {
    client.end();
    listener.stop(true);
    cleanup(dir);
  });
  return { server: await conn, chunks, ended };
}

function frame(text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, false);
  out.set(payload, 4);
  return out;
}

const joined = (chunks: Uint8Array[]) => Buffer.concat(chunks);

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await Bun.sleep(1);
}

test("frames sent in one loop turn leave in one write, in order, byte for byte", async () => {
  const { server, chunks } = await pair();
  const texts = ["start", "chunk", "end"];
  for (const t of texts) await server.send(new TextEncoder().encode(t));
  const expected = Buffer.concat(texts.map(frame));
  await until(() => joined(chunks).length >= expected.length);
  expect(joined(chunks)).toEqual(expected);
  expect(chunks.length).toBe(1);
});

test("close delivers the held frames before hanging up", async () => {
  const { server, chunks, ended } = await pair();
  await server.send(new TextEncoder().encode("last words"));
  await server.close();
  await ended;
  expect(joined(chunks)).toEqual(Buffer.from(frame("last words")));
});

test("a frame past the cork size (written at once) arrives whole", async () => {
  const { server, chunks } = await pair();
  const big = "x".repeat(70 * 1024);
  await server.send(new TextEncoder().encode(big));
  const expected = Buffer.from(frame(big));
  await until(() => joined(chunks).length >= expected.length);
  expect(joined(chunks)).toEqual(expected);
});

test("a flushed frame (a reply, a stream's end) leaves at once and takes the held frames with it", async () => {
  const { server, chunks } = await pair();
  await server.send(new TextEncoder().encode("chunk"));
  await server.send(new TextEncoder().encode("end"), true);
  const expected = Buffer.concat([frame("chunk"), frame("end")]);
  await until(() => joined(chunks).length >= expected.length);
  expect(joined(chunks)).toEqual(expected);
  expect(chunks.length).toBe(1);
});
