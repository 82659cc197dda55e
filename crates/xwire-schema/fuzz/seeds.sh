#!/bin/sh
# Fills corpus/<target> from the committed seeds, and with more schemas from the shared corpora
# when they are there (N: how many small msData schemas; default 2000).
set -e
cd "$(dirname "$0")"
N=${N:-2000}
C=${CORPORA:-../../../../shared/corpora}
mkdir -p corpus/schema_load corpus/schema_mutate corpus/schema_validate corpus/xsd_regex corpus/simple_value corpus/numbers
cp seeds/real/*.xsd seeds/msdata/*.xsd corpus/schema_load/
cp seeds/real/*.xml corpus/schema_validate/
cp seeds/regex/* corpus/xsd_regex/
cp seeds/simple/* corpus/simple_value/
i=0; for s in 0 -7 +0042 999999999999999999 -1000000000000000000 1.5 .5 5. -3.1094197354383014e-6 \
    +1.5E+10 1e 12345678901234567890.12345678901234567890; do
  printf %s "$s" > corpus/numbers/n$i; i=$((i+1))
done
i=0; while [ $i -lt 8 ]; do printf "\\$(printf %03o $i)" > corpus/schema_mutate/pick$i; i=$((i+1)); done
if [ -d "$C/xsdtests/msData" ]; then
  find "$C/xsdtests/msData" -name '*.xsd' -size -4k | sort | head -n "$N" |
    while read -r f; do cp "$f" "corpus/schema_load/$(echo "$f" | tr / _)"; done
  find "$C/xsdtests/msData" -name '*.xml' -size -2k | sort | head -n "$N" |
    while read -r f; do cp "$f" "corpus/schema_validate/$(echo "$f" | tr / _)"; done
fi
if [ -d "$C/xsd-primer" ]; then cp "$C"/xsd-primer/*.xml corpus/schema_validate/; fi
