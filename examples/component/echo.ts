#!/usr/bin/env bun
// An example component built with the kit: one `shout` tool. Run it by hand
// (`bun examples/component/echo.ts`) or as a package command with
// `crabtalk service start echo`; the daemon finds it through run/echo.port.
import { z } from "zod";
import { runComponent } from "../../src/component/index.ts";

const component = await runComponent({
  name: process.env.CRABTALK_COMPONENT_NAME || "echo",
  tools(server) {
    server.registerTool("shout", { description: "Repeat a text in capitals", inputSchema: { text: z.string() } }, async ({ text }) => {
      component.log(`shout ${JSON.stringify(text)}`);
      return { content: [{ type: "text", text: text.toUpperCase() }] };
    });
  },
});
