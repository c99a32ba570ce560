const cmds: Record<string, string[]> = { hello: ["/tmp/pce/h"], ver: ["dist/crabtalk", "--version"], ping: ["dist/crabtalk", "ping"], send: ["dist/crabtalk", "send", "hi"], sendS: ["dist/crabtalk", "send", "-s", "1", "hi"] };
const cpu: Record<string, number[]> = {}; const wall: Record<string, number[]> = {};
for (let i = 0; i < 25; i++) for (const [k, argv] of Object.entries(cmds)) {
  const t = performance.now();
  const p = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" }); await p.exited;
  (wall[k] ??= []).push(performance.now() - t);
  (cpu[k] ??= []).push(Number(p.resourceUsage()!.cpuTime.total) / 1000);
}
const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(2);
for (const k of Object.keys(cmds)) console.log(k, "cpu", med(cpu[k]), "wall", med(wall[k]));
