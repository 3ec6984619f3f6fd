#!/bin/sh
cd "$(dirname "$0")/.." && exec swift run make-sample-library --out Data "$@"
