// The output of a child process as lines, stdout and stderr interleaved as
// they arrive, then its exit code.
export async function* outputLines(proc: Bun.Subprocess<"ignore", "pipe", "pipe">): AsyncGenerator<string, number> {
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let open = 2;
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of stream) {
      rest += decoder.decode(chunk, { stream: true });
      const parts = rest.split(/\r?\n/);
      rest = parts.pop() ?? "";
      queue.push(...parts);
      wake?.();
    }
    if (rest) queue.push(rest);
    open--;
    wake?.();
  };
  void read(proc.stdout);
  void read(proc.stderr);
  for (;;) {
    const line = queue.shift();
    if (line !== undefined) {
      yield line;
      continue;
    }
    if (open === 0) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  return await proc.exited;
}

/** Spawns `argv` and yields its output lines; a non-zero exit throws `what failed (exit N)`. */
export async function* runStreaming(argv: string[], opts: { cwd: string; env: Record<string, string | undefined>; what: string }): AsyncGenerator<string> {
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, { cwd: opts.cwd, env: opts.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch (err) {
    throw new Error(`${opts.what}: cannot run '${argv[0]}': ${(err as Error).message}`);
  }
  const lines = outputLines(proc);
  let next = await lines.next();
  while (!next.done) {
    yield next.value;
    next = await lines.next();
  }
  if (next.value !== 0) throw new Error(`${opts.what} failed (exit ${next.value})`);
}
