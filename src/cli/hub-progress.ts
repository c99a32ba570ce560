// Prints an InstallPackage / UninstallPackage stream: each step on its own
// line (with a spinner while it runs, on a terminal), setup output as it
// comes, warnings in yellow; the done frame ends it.
import type { HubEvent } from "../protocol/gen/crabtalk_pb.ts";
import { styleFor } from "./style.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Returns the `done` error ("" on success). */
export async function printHubStream(events: AsyncIterable<HubEvent>, out = process.stdout): Promise<string> {
  const style = styleFor(out);
  const tty = Boolean(out.isTTY);
  let current = "";
  let frame = 0;
  const timer = tty ? setInterval(() => out.write(`\r${style.cyan(FRAMES[frame++ % FRAMES.length])} ${current}`), 80) : undefined;
  const clear = () => tty && current && out.write("\r\x1b[2K");
  const line = (text: string) => {
    clear();
    out.write(`${text}\n`);
  };
  try {
    for await (const e of events) {
      const v = e.event;
      if (v.case === "step") {
        if (current) line(`${style.green("✓")} ${current}`);
        current = v.value.message;
        if (!tty) out.write(`${current}\n`);
      } else if (v.case === "setupOutput") {
        line(style.dim(`  ${v.value.content}`));
      } else if (v.case === "warning") {
        line(style.yellow(`warning: ${v.value.message}`));
      } else if (v.case === "done") {
        if (current && tty) line(`${style.green("✓")} ${current}`);
        current = "";
        return v.value.error;
      }
    }
    return "";
  } finally {
    clearInterval(timer);
    if (current) clear();
  }
}
