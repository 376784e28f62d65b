# Sourced by scripts/bench.sh: the inputs, made once by gsort-gen (or
# /dev/urandom) in WORK/data and reused by later cases and calls while their
# name (kind, record count, seed) is the same. Each sets $data to the file.
#   records_of GB RECORD_SIZE      records of SIZE_GB (else GB) gigabytes, in $records
#   gb RECORDS RECORD_SIZE         their gigabytes, for a title
#   data_gensort RECORDS [ascii]   gensort records (binary, or gensort -a's lines)
#   data_u64 RECORDS               16-byte records, a u64 key at offset 0
#   data_random RECORDS            100-byte records of random bytes (incompressible)
#   data_lines KIND LINES          text lines of gsort-gen --format KIND (logs: 20 to 300
#                                  bytes, 159 on average; csv: 31 on average)
#   data_compressed FILE EXT       FILE compressed by the tool of EXT (zst gz bz2 xz)
#   data_shape SHAPE BYTES         CSV lines of csv_shapes.py SHAPE (few dec prefix many dups)
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

records_of() {
  records=$(awk -v g="${SIZE_GB:-$1}" -v s="$2" 'BEGIN { printf "%d", g * 1e9 / s }')
}

gb() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%g", n * s / 1e9 }'; }

# made FILE COMMAND...: runs COMMAND (which writes FILE.part) unless FILE exists.
made() {
  local file=$1
  shift
  data=$file
  [[ -f $file ]] && return 0
  mkdir -p "${file%/*}"
  echo "  making $file" >&2
  "$@" || die "could not make $file"
  mv "$file.part" "$file"
  made_files+=("$file")
}

data_gensort() {
  local seed=${SEED:-7}
  if [[ ${2:-} == ascii ]]; then
    made "$work/data/gensort-ascii-$1.s$seed" "$bin/gsort-gen" --format gensort --ascii --records "$1" --seed "$seed" \
      -o "$work/data/gensort-ascii-$1.s$seed.part"
  else
    made "$work/data/gensort-$1.s$seed" "$bin/gsort-gen" --format gensort --records "$1" --seed "$seed" \
      -o "$work/data/gensort-$1.s$seed.part"
  fi
}

data_u64() {
  local seed=${SEED:-7}
  made "$work/data/u64-$1.s$seed" "$bin/gsort-gen" --record-size 16 --key 0:u64 --records "$1" --seed "$seed" \
    -o "$work/data/u64-$1.s$seed.part"
}

data_lines() {
  local seed=${SEED:-7}
  made "$work/data/$1-$2.s$seed" "$bin/gsort-gen" --format "$1" --records "$2" --seed "$seed" \
    -o "$work/data/$1-$2.s$seed.part"
}

data_random() {
  # shellcheck disable=SC2016  # the child's $1 and $2
  made "$work/data/random-$1" bash -c 'head -c "$1" /dev/urandom >"$2"' _ "$(($1 * 100))" "$work/data/random-$1.part"
}

data_compressed() {
  local tool
  case $2 in
    zst) tool="zstd -q -3 -c" ;;
    gz) tool="gzip -6 -c" ;;
    bz2) tool="bzip2 -9 -c" ;;
    xz) tool="xz -6 -T0 -c" ;;
    *) die "no tool for .$2" ;;
  esac
  made "$1.$2" bash -c "$tool \"\$1\" >\"\$2\"" _ "$1" "$1.$2.part"
}

# The other sorters, where the case can use them.
#   gnu_sort_row OUT IN [-S SIZE]     LC_ALL=C sort --parallel=$(nproc) (GNU_SORT=0: none)
#   sortbin_row OUT IN RECORD_SIZE [MEMORY]   $SORTBIN, when set
gnu_sort_row() {
  [[ ${GNU_SORT:-1} == 1 ]] || return 0
  local out=$1 in=$2 mem=${3:-${GNU_SORT_MEM:-50%}}
  row "GNU sort" "$out" "$(q env LC_ALL=C sort --parallel="$(nproc)" -S "$mem" -T "$run_dir/tmp" -o "$out" "$in")"
}

sortbin_row() {
  [[ -n ${SORTBIN:-} ]] || return 0
  local out=$1 in=$2 size=$3 mem=${4:-${SORTBIN_MEMORY:-$(awk '/MemTotal/ { printf "%dM", $2 / 2048 }' /proc/meminfo)}}
  local threads
  threads=$(nproc)
  ((threads <= 128)) || threads=128
  row "sortbin" "$out" "$(q "$SORTBIN" --size="$size" --memory="$mem" --threads="$threads" \
    --temporary-directory="$run_dir/tmp" "$in" "$out")"
}

# data_dups LINES PERCENT: LINES text lines drawn at random from a pool of
# PERCENT% of LINES distinct ones (awk, seeded by SEED): short lines of one
# to six fields (integers, decimals, words; blank- or comma-separated), and
# one pool line in a hundred long (1,000 to 20,000 bytes: a run of one
# letter, alone or after a short first field), as the differential test's
# inputs have them.
data_dups() {
  local seed=${SEED:-7}
  made "$work/data/dups-$1-$2.s$seed" awk -v n="$1" -v pct="$2" -v seed="$seed" \
    -v out="$work/data/dups-$1-$2.s$seed.part" -f "$bench_dir/dups.awk"
}

# data_shape SHAPE BYTES: CSV lines of scripts/bench/csv_shapes.py's SHAPE
# (few dec prefix many dups), BYTES of them (python3).
data_shape() {
  local seed=${SEED:-7}
  made "$work/data/shape-$1-$2.s$seed" python3 "$bench_dir/csv_shapes.py" "$1" "$2" "$work/data/shape-$1-$2.s$seed.part" "$seed"
}
