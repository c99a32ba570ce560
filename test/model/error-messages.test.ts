// A provider's error text reaches logs and terminals: its control characters
// are shown escaped, never passed on (src/model/errors.ts errorBodyMessage).
import { afterAll, expect, test } from "bun:test";
import { errorBodyMessage } from "../../src/model/errors.ts";
import { createOpenAIAdapter } from "../../src/model/openai/adapter.ts";
import { jsonReply, sampleRequest, startWireCapture } from "../support/wire-capture.ts";

const wire = startWireCapture([]);
afterAll(() => wire.stop());

test("an error message's control characters are escaped; newlines and tabs stay", () => {
  expect(errorBodyMessage(JSON.stringify({ error: { message: "bad\u001b[2J\u001b]0;pwned\u0007 key\ttab\nline" } }))).toBe(
    "bad\\u001b[2J\\u001b]0;pwned\\u0007 key\ttab\nline",
  );
  // A body that is not JSON: its preview, the same way (a C1 CSI and a carriage return included).
  expect(errorBodyMessage("<html>\u009b31m\rover</html>")).toBe("<html>\\u009b31m\\u000dover</html>...");
});

test("a hostile provider's error status or a body that is not JSON puts no escape sequence into the run's error", async () => {
  const adapter = createOpenAIAdapter({ name: "p", kind: "openai", models: ["m"], apiKey: "k-test", baseUrl: `${wire.origin}/v1` });
  const cases = [
    () => jsonReply(400, { error: { message: "\u001b[31mred\u001b[0m" } }),
    () => new Response("\u001b]52;c;cGF5bG9hZA==\u0007", { headers: { "content-type": "application/json" } }),
  ];
  for (const reply of cases) {
    wire.reply = reply;
    const error = await adapter.complete(sampleRequest("gpt-x")).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(error).toBeDefined();
    expect(error).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(error).toContain("\\u001b");
  }
});
