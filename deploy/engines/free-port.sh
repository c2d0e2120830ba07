#!/usr/bin/env bash
# Print a TCP port that is free on 127.0.0.1 right now (the kernel picks it).
set -euo pipefail
if command -v python3 >/dev/null; then
  exec python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
fi
exec node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
