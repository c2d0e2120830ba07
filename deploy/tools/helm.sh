#!/usr/bin/env bash
# Run helm offline (see k8s-tool.sh for where the binary comes from).
# Usage: deploy/tools/helm.sh lint charts/kaboodle
#        deploy/tools/helm.sh template kaboodle charts/kaboodle --set deploymentMode=distributed
exec "$(dirname "${BASH_SOURCE[0]}")/k8s-tool.sh" helm "$@"
