#!/usr/bin/env bun
// Entry: hand argv to the CLI. (No top-level await: bytecode builds need it.)
import { buildProgram } from "./cli/program.ts";

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`crabtalk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
