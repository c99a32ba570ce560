#!/usr/bin/env bun
// Entry: hand argv to the CLI. (No top-level await: bytecode builds need it.)
import { buildProgram } from "./cli/program.ts";
import { serviceShorthand } from "./cli/commands/services.ts";

const program = buildProgram();
program
  .parseAsync(serviceShorthand(process.argv, program))
  .catch((err: unknown) => {
    process.stderr.write(`crabtalk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
