#!/bin/sh
# Test solver of the original test/crashing: accepts the handshake, then dies.
IFS= read -r line
echo success
exit 1
