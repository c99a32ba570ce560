import { FastClient } from "../src/cli/fast/client.ts";
const c = await FastClient.open({}, () => {});
const ts: number[] = []; const ps: number[] = []; const gs: number[] = [];
for (let i = 0; i < 60; i++) {
  let t = performance.now();
  for await (const e of c.stream({ agent: "crab", content: "hi", cwd: "/tmp" })) void e;
  ts.push(performance.now() - t);
  t = performance.now(); await c.getAgent("crab"); gs.push(performance.now() - t);
  t = performance.now(); await c.ping(); ps.push(performance.now() - t);
}
const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(2);
console.log(`turn ${med(ts)} ms, getAgent ${med(gs)} ms, ping ${med(ps)} ms`);
await c.close();
