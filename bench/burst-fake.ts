// The fake OpenAI provider of bench/burst.ts, in a process of its own, as an
// independent harness's fake is: raw HTTP/1.1 over node:net (keep-alive,
// setNoDelay on every socket, nothing between a write and the kernel), so it
// is never the bottleneck.
//   bun bench/burst-fake.ts <k> [--no-hold] [--rest-after-ms MS]
// It holds every streamed answer (headers included) until k streamed requests
// have arrived, then writes each one's head and first content chunk in one
// synchronous loop; the rest of each answer follows on the next turn of its
// event loop (or MS later: then the daemon's first-chunk work is timed without
// the end of each turn, which it otherwise does before the next stream's first
// chunk). The first chunk's content is "t<ms>", the clock
// (performance.timeOrigin + now) read just before that answer's write, so a
// client knows exactly when its own first chunk left the fake. --no-hold
// answers each request as soon as it is read (what the fake of bench/send.ts
// does). A request that is not streamed (a conversation's title) is answered
// at once. Prints {"port": N} on stdout once listening.
import { createServer, type Socket } from "node:net";

const k = Number(process.argv[2]);
if (!Number.isInteger(k) || k < 1) throw new Error("usage: bun bench/burst-fake.ts <k> [--no-hold]");
const hold = !process.argv.includes("--no-hold");
const restAt = process.argv.indexOf("--rest-after-ms");
const restAfterMs = restAt >= 0 ? Number(process.argv[restAt + 1]) : 0;

const now = () => performance.timeOrigin + performance.now();
const HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\ntransfer-encoding: chunked\r\nconnection: keep-alive\r\n\r\n";

/** One HTTP/1.1 chunk holding SSE events. */
function sse(...data: string[]): string {
  const text = data.map((d) => `data: ${d}\n\n`).join("");
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

const chunk = (id: string, delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({
    id,
    object: "chat.completion.chunk",
    created: 0,
    model: "fake-model",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

let served = 0;
function firstPart(): string {
  const id = `chatcmpl-${++served}`;
  return HEAD + sse(chunk(id, { role: "assistant", content: "", refusal: null }), chunk(id, { content: `t${now().toFixed(3)}` }));
}
function restPart(): string {
  return sse(chunk("chatcmpl-rest", {}, "stop"), "[DONE]") + "0\r\n\r\n"; // the body's last chunk
}

function titleAnswer(): string {
  const body = JSON.stringify({
    id: "chatcmpl-title",
    object: "chat.completion",
    created: 0,
    model: "fake-model",
    choices: [{ index: 0, message: { role: "assistant", content: "Bench title" }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`;
}

let held: Socket[] = [];
function answer(sockets: Socket[]): void {
  // The first chunks, one loop: each timestamp is read just before its own write.
  for (const s of sockets) s.write(firstPart());
  const rest = () => {
    for (const s of sockets) s.write(restPart());
  };
  if (restAfterMs > 0) setTimeout(rest, restAfterMs);
  else setImmediate(rest);
}

function onRequest(socket: Socket, head: string, body: string): void {
  const path = head.slice(head.indexOf(" ") + 1, head.indexOf(" ", head.indexOf(" ") + 1));
  if (!path.endsWith("/chat/completions")) {
    socket.write("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: keep-alive\r\n\r\n");
    return;
  }
  const streamed = (JSON.parse(body) as { stream?: boolean }).stream === true;
  if (!streamed) return void socket.write(titleAnswer());
  if (!hold) return answer([socket]);
  held.push(socket);
  if (held.length < k) return;
  const all = held;
  held = [];
  answer(all);
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  let buffer: Buffer = Buffer.alloc(0);
  socket.on("data", (data: Buffer) => {
    buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) throw new Error(`burst fake: a request without content-length: ${head.split("\r\n")[0]}`);
      const total = end + 4 + Number(length[1]);
      if (buffer.length < total) return;
      const body = buffer.subarray(end + 4, total).toString("utf8");
      buffer = buffer.subarray(total);
      onRequest(socket, head, body);
    }
  });
  socket.on("error", () => {});
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("burst fake: no address");
  console.log(JSON.stringify({ port: address.port }));
});
