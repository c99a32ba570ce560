// The web console's page (src/console/), imported as HTML: Bun bundles it and
// its scripts at build time (`bun build --compile` puts it in the binary) and
// serves the bundle's assets next to it (docs/remote.md#the-web-console).
import page from "../console/index.html";

export const consolePage = page;
