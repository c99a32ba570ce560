#!/bin/sh
# crabtalk installer (curl -fsSL …/install.sh | sh).
# Placeholder: prebuilt binaries are not published yet, so this script cannot
# download one. Build from source instead:
#   git clone <this repository> && cd crabtalk && npm ci && npx bun run build
#   install -m 755 dist/crabtalk ~/.local/bin/crabtalk
echo "crabtalk: prebuilt binaries are not published yet; build from source (see README.md, 'Building binaries')." >&2
exit 1
