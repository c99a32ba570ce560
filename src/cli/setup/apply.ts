// What setup does once it knows the provider: write it with SetProvider,
// make its model the active one with SetActiveModel, and send a one-line
// test message. The daemon validates and stores; nothing is written here.
import type { Client } from "../../protocol/client.ts";
import type { ProviderKind } from "../../base/provider-kinds.ts";

export interface SetupChoice {
  /** Provider config name. */
  name: string;
  kind: ProviderKind;
  /** A literal key, or a `${VAR}` reference the daemon expands. */
  apiKey?: string;
  baseUrl?: string;
  /** Bedrock. */
  region?: string;
  model: string;
}

const TEST_MESSAGE = "This is a connection test from crabtalk setup: answer with one short sentence.";
/** Who the test message is from, so that it does not continue the user's own conversation. */
const TEST_SENDER = "crabtalk-setup";

/**
 * The provider table as SetProvider JSON. A provider of the same name keeps
 * its other keys (its secrets come back redacted, which the daemon restores)
 * and its other models.
 */
async function providerJson(client: Client, choice: SetupChoice): Promise<Record<string, unknown>> {
  const existing = (await client.listProviders()).find((p) => p.name === choice.name);
  const previous = existing ? (JSON.parse(existing.config) as Record<string, unknown>) : {};
  const listed = Array.isArray(previous.models) ? previous.models.map(String) : [];
  const models = [...new Set([choice.model, ...listed])];
  return {
    ...previous,
    kind: choice.kind,
    ...(choice.apiKey ? { api_key: choice.apiKey } : {}),
    ...(choice.baseUrl ? { base_url: choice.baseUrl } : {}),
    ...(choice.region ? { region: choice.region } : {}),
    models,
  };
}

export async function writeProvider(client: Client, choice: SetupChoice): Promise<void> {
  await client.setProvider(choice.name, JSON.stringify(await providerJson(client, choice)));
  await client.setActiveModel(choice.model);
}

/** The answer to the test message, or the exact error the run ended with. */
export async function testMessage(client: Client): Promise<{ ok: true; answer: string; model: string } | { ok: false; error: string }> {
  try {
    const res = await client.send({ agent: "crab", content: TEST_MESSAGE, sender: TEST_SENDER, newChat: true });
    return { ok: true, answer: res.content.trim(), model: res.model };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
