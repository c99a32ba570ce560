// The CPU floor for a daemon turn at 100 concurrent streams: a bare Bun process
// making the same streamed request to the same fake LLM, 100 at a time, with
// nothing around it (no SDK, no protocol, no session). Run as a child so its
// CPU is its own (the fake serves from the bench process):
//   bun bench/fetch-floor.ts <fake url> <concurrent> <rounds>
// prints {"cpu_per_request_ms": …} measured by process.cpuUsage() around the
// rounds, after one warm-up round.
const [url, k, rounds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const body = JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: "hi" }] });

async function one(): Promise<void> {
  const res = await fetch(`${url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  const decoder = new TextDecoder();
  let seen = "";
  for await (const chunk of res.body) seen += decoder.decode(chunk, { stream: true });
  if (!seen.includes("[DONE]")) throw new Error("stream ended without [DONE]");
}

const round = () => Promise.all(Array.from({ length: k }, one));
await round();
const before = process.cpuUsage();
for (let r = 0; r < rounds; r++) await round();
const used = process.cpuUsage(before);
console.log(JSON.stringify({ cpu_per_request_ms: (used.user + used.system) / 1000 / (k * rounds) }));
export {};
