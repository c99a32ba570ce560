// The shapes shared by the sources of AWS credentials
// (docs/providers.md#bedrock--aws-bedrock): what a source yields, what it
// reads, and how it says "not me, try the next source".
import type { AwsCredentials } from "../sigv4.ts";

export interface ResolvedCredentials extends AwsCredentials {
  expiration?: Date;
}

export type Env = Record<string, string | undefined>;

/** What every source reads: the environment of this resolution, the Bedrock region, the abort signal. */
export interface Context {
  env: Env;
  region: string;
  signal: AbortSignal;
}

/**
 * A source that does not apply, or failed in a way after which the AWS SDK
 * tries the next source (its `tryNextLink`). The chain collects these reasons
 * for its final error; any other error stops the chain, as in the SDK.
 */
export class NextSource extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "NextSource";
  }
}
