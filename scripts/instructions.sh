#!/usr/bin/env bash
# Instructions per document of xwire's benchmark operations, counted by callgrind: noise-free,
# so a change of 1% shows (wall clock on a shared machine moves 5-10%). For each (operation,
# workload) it runs the benchmark's own runner (crates/xwire-bench/examples/op_loop.rs) under
# `valgrind --tool=callgrind` twice, with R rounds and with 0, and prints
# (instructions(R) - instructions(0)) / R: the cost of one document, set-up (schema compiled,
# document encoded, warm-up round) subtracted. Counts depend on the compiler: compare tables
# made with the same rustc (both are recorded).
#
#   scripts/instructions.sh                      measure, print the table (markdown)
#   scripts/instructions.sh --out FILE           also write it to FILE (TSV)
#   scripts/instructions.sh --compare FILE       measure and compare with a saved table
#   scripts/instructions.sh --table NEW --compare OLD   compare two saved tables, no run
#   scripts/instructions.sh --only REGEX         only the rows whose "operation workload" match
#
# With --compare, rows beyond +-2% are flagged ("worse" / "better") and the exit status is 1
# when any row is worse. Needs valgrind (Debian package valgrind) and the repository; builds
# the harness and the `xwire` binary in release (documents and callgrind files go to
# target/instructions). The baseline of issue 28 is bench/instructions/c393d0b.tsv. A full
# run takes under three minutes once built. See docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

out=""
compare=""
table=""
only=""
tolerance=2
usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=${2:?--out needs a file}; shift 2 ;;
        --compare) compare=${2:?--compare needs a file}; shift 2 ;;
        --table) table=${2:?--table needs a file}; shift 2 ;;
        --only) only=${2:?--only needs a pattern}; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "instructions.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

# The rows: operation label, peer and operation of `xwire bench`, workload, schema, rounds.
# The schemas are the workloads' own (crates/xwire-bench/src/workloads/mod.rs); `-` for none.
# Rounds make each run ~100-300 M instructions: many for small documents, few for large.
# validate is the `xwire` peer's (Validator::validate_with, lean pass first); validate-psvi
# the `xwire-psvi` peer's (ValidatingReader, the general pass); bind the `xwire-compiled`
# peer's (the parser xwire-codegen generated from po.xsd: typed objects); index the `xwire-index`
# peer's (parse into a reused index, walk it); decode/encode xwire's binary format,
# schema-less (encode repeats within 0.7% only: its name index hashes with random keys). tiny is crates/xwire/examples/tiny.rs's loop; parse of `overhead` is what the
# benchmark's overhead workload times (both: a new reader per `<a/>`).
rows() {
    local po=po.xsd soap=soapinterop.xsd num=numeric.xsd
    # workload             schema  rounds
    local workloads=(
        "po-1k                 $po     2000"
        "po-64k                $po     50"
        "arrays-double-1000    $soap   50"
        "soap-echo-struct-res  $soap   400"
        "numeric-10k           $num    10"
        "xmark                 -       2"
    )
    local w name schema rounds
    for w in "${workloads[@]}"; do
        read -r name schema rounds <<<"$w"
        echo "parse xwire parse $name - $rounds"
        if [ "$schema" != - ]; then
            echo "validate xwire validate $name $schema $rounds"
            echo "validate-psvi xwire-psvi validate $name $schema $rounds"
        fi
        if [ "$schema" = "$po" ]; then
            echo "bind xwire-compiled bind $name $schema $rounds"
        fi
        echo "index xwire-index index $name - $rounds"
        echo "decode xwire decode $name - $rounds"
        echo "encode xwire encode $name - $rounds"
    done
    echo "parse xwire parse overhead - 100000"
    echo "tiny - tiny overhead - 100000"
}

# Instructions of one callgrind run: op_loop ARGS...
count() {
    local file="$work/callgrind.out"
    rm -f "$file"
    env -i PATH="$PATH" valgrind --tool=callgrind --callgrind-out-file="$file" \
        "$harness" "$@" >"$work/stdout" 2>"$work/stderr" || {
        echo "instructions.sh: op_loop $* failed:" >&2
        cat "$work/stdout" "$work/stderr" >&2
        exit 1
    }
    awk '/^totals:/ { t = $2 } /^summary:/ { s = $2 } END { print (t != "" ? t : s) }' "$file"
}

measure() {
    work="$root/target/instructions"
    harness="$root/target/release/examples/op_loop"
    command -v valgrind >/dev/null || {
        echo "instructions.sh: valgrind not found (apt-get install valgrind)" >&2
        exit 1
    }
    echo "instructions.sh: building the harness and xwire (release)" >&2
    cargo build --release --quiet -p xwire-bench -p xwire-cli --example op_loop --bin xwire
    mkdir -p "$work/docs"
    local schemas="$root/crates/xwire-bench/schemas"
    # The code measured: the last commit that changed the libraries (HEAD may only add
    # harness or documentation commits on top of it), and whether the tree differs.
    local libraries=(crates/xwire crates/xwire-schema Cargo.toml Cargo.lock) code dirty=""
    code=$(git log -1 --format=%h -- "${libraries[@]}")
    git diff --quiet HEAD -- crates Cargo.toml Cargo.lock || dirty=" + uncommitted changes"
    {
        echo "# xwire instructions per document: scripts/instructions.sh"
        printf '# commit\t%s%s (libraries; HEAD %s)\n' "$code" "$dirty" \
            "$(git rev-parse --short HEAD)"
        printf '# rustc\t%s\n' "$(rustc -V)"
        printf '# valgrind\t%s\n' "$(valgrind --version)"
        printf '# date\t%s\n' "$(date -u +%Y-%m-%d)"
        printf 'operation\tworkload\tbytes\trounds\tinstructions\n'
    } >"$work/table.tsv"
    local label peer op name schema rounds doc args a b per started=$SECONDS
    while read -r label peer op name schema rounds; do
        if [ -n "$only" ] && ! [[ "$label $name" =~ $only ]]; then
            continue
        fi
        doc="$work/docs/$name.xml"
        [ -s "$doc" ] || "$root/target/release/xwire" gen "$name" -o "$doc"
        if [ "$peer" = - ]; then
            args=("$op" "$doc")
        else
            args=("$peer" "$op" "$doc")
        fi
        if [ "$schema" != - ]; then
            args+=(--schema "$schemas/$schema")
        fi
        a=$(count "${args[@]}" "$rounds")
        b=$(count "${args[@]}" 0)
        per=$(((a - b + rounds / 2) / rounds))
        printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$name" "$(stat -c %s "$doc")" "$rounds" "$per" \
            >>"$work/table.tsv"
        printf 'instructions.sh: %-14s %-21s %12s  (%ds)\n' "$label" "$name" "$per" \
            $((SECONDS - started)) >&2
    done < <(rows)
    table="$work/table.tsv"
}

# The table as markdown: instructions per document and per byte.
show() {
    grep '^# ' "$1" | sed 's/^# //; s/\t/: /'
    echo
    echo "| operation | workload | bytes | rounds | instructions/doc | instructions/byte |"
    echo "|---|---|---:|---:|---:|---:|"
    awk -F'\t' -v only="$only" '!/^#/ && $1 != "operation" && ($1 " " $2) ~ only {
        printf "| %s | %s | %d | %d | %.0f | %.2f |\n", $1, $2, $3, $4, $5, $5 / $3 }' "$1"
}

# Before/after: saved table $1 against $2; 1 when a row is worse than +tolerance%.
diff_tables() {
    echo "before: $(grep -m1 '^# commit' "$1" | cut -f2), $(grep -m1 '^# rustc' "$1" | cut -f2)"
    echo "after:  $(grep -m1 '^# commit' "$2" | cut -f2), $(grep -m1 '^# rustc' "$2" | cut -f2)"
    if [ "$(grep -m1 '^# rustc' "$1")" != "$(grep -m1 '^# rustc' "$2")" ]; then
        echo "warning: different compilers; the counts are not comparable" >&2
    fi
    echo
    echo "| operation | workload | before | after | after/before | |"
    echo "|---|---|---:|---:|---:|---|"
    awk -F'\t' -v tol="$tolerance" -v only="$only" '
        /^#/ || $1 == "operation" || ($1 " " $2) !~ only { next }
        FNR == NR { before[$1 "\t" $2] = $5; order[++n] = $1 "\t" $2; next }
        {
            key = $1 "\t" $2; split(key, k, "\t")
            if (!(key in before)) { printf "| %s | %s | - | %.0f | | new |\n", k[1], k[2], $5; next }
            seen[key] = 1; r = $5 / before[key]; flag = ""
            if (r > 1 + tol / 100) { flag = "worse"; worse++ }
            else if (r < 1 - tol / 100) flag = "better"
            printf "| %s | %s | %.0f | %.0f | %.3f | %s |\n", k[1], k[2], before[key], $5, r, flag
        }
        END {
            for (i = 1; i <= n; i++) if (!(order[i] in seen)) {
                split(order[i], k, "\t")
                printf "| %s | %s | %.0f | - | | not measured |\n", k[1], k[2], before[order[i]]
            }
            if (worse) {
                printf "\n%d row(s) worse than +%s%%\n", worse, tol
                exit 1
            }
        }' "$1" "$2"
}

if [ -z "$table" ]; then
    measure
fi
[ -f "$table" ] || { echo "instructions.sh: $table: no such file" >&2; exit 1; }
if [ -n "$out" ]; then
    mkdir -p "$(dirname "$out")"
    [ "$table" -ef "$out" ] || cp "$table" "$out"
fi
if [ -n "$compare" ]; then
    diff_tables "$compare" "$table"
else
    show "$table"
fi
