#!/usr/bin/env bash
# Build the kafka-mock broker from kafka-mock.c against Debian's librdkafka-dev.
# Rebuilds only when the source is newer than the binary (or the binary is missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/kafka-mock.c"
bin="$here/kafka-mock"

if [[ -x "$bin" && "$bin" -nt "$src" ]]; then
  exit 0
fi
if [[ ! -f /usr/include/librdkafka/rdkafka_mock.h ]]; then
  echo "kafka-mock: librdkafka-dev is not installed (apt-get install -y gcc librdkafka-dev)" >&2
  exit 1
fi
if ! command -v "${CC:-gcc}" >/dev/null; then
  echo "kafka-mock: no C compiler (apt-get install -y gcc)" >&2
  exit 1
fi
# Build into a temporary name first so a failed build never leaves a half-written binary behind.
"${CC:-gcc}" -O2 -Wall -Wextra -o "$bin.tmp" "$src" -lrdkafka -lpthread
mv "$bin.tmp" "$bin"
echo "kafka-mock: built $bin" >&2
