#!/usr/bin/env bash
# Writes the seed corpus of every fuzz target into tests/fuzz/corpus/<target>/:
# a few valid inputs and a few edge cases. The run-file seeds come from the
# real RunWriter (gsort_fuzz_run_seeds, built by a GSORT_FUZZ build).
# Usage: tests/fuzz/make_corpus.sh BUILD_DIR
set -euo pipefail
build_dir=$(realpath "$1")
cd "$(dirname "$0")"
rm -rf corpus
mkdir -p corpus/{size_parse_fuzz,key_spec_fuzz,options_fuzz,run_reader_fuzz,zstd_input_fuzz,compressed_input_fuzz}

seed() {  # seed TARGET NAME PRINTF-FORMAT: one file, written by printf
  printf -- "$3" > "corpus/$1/$2"
}
seed size_parse_fuzz kib '4096'
seed size_parse_fuzz gib '4G'
seed size_parse_fuzz bytes '1b'
seed size_parse_fuzz percent '50%%'
seed size_parse_fuzz max_bytes '18446744073709551615b'
seed size_parse_fuzz overflow_t '16777216T'
seed size_parse_fuzz empty ''

seed key_spec_fuzz bytes '0:10'
seed key_spec_fuzz u64be_desc '8:u64be:desc'
seed key_spec_fuzz f32 '4:f32'
seed key_spec_fuzz i16 '2:i16'
seed key_spec_fuzz bytes_desc '2:8:desc'
seed key_spec_fuzz huge_offset '4294967295:1'
seed key_spec_fuzz f64be '0:f64be'

seed options_fuzz sort '--record-size\000100\000-k\0008:u64\000-S\0001M\000in.bin'
seed options_fuzz gensort '--format\000gensort\000-o\000out\000-r\000--parallel\0004\000-T\000/tmp'
seed options_fuzz merge '-m\000a\000b\000--compress-temp=5\000--compress-output\000--stats\000-'
seed options_fuzz check '-c\000--record-size\00010\000--backend\000cpu\000--algorithm\000radix'
seed options_fuzz gpu '--record-size=16\000--gpu-memory\00050%%\000--device\0000\000--verify\000-u'
seed options_fuzz help '--help'
seed options_fuzz version '--version'

"$build_dir/tests/fuzz/gsort_fuzz_run_seeds" corpus/run_reader_fuzz

records() { seq -s, 1 1000 | head -c "$1"; }  # deterministic bytes (under 64 KiB: no SIGPIPE)
records 1000 | zstd -q -c > corpus/zstd_input_fuzz/text_1000
head -c 4096 /dev/zero | zstd -q -19 -c > corpus/zstd_input_fuzz/zeros_4096
: | zstd -q -c > corpus/zstd_input_fuzz/empty_frame
cat corpus/zstd_input_fuzz/text_1000 corpus/zstd_input_fuzz/zeros_4096 > corpus/zstd_input_fuzz/two_frames
head -c 20 corpus/zstd_input_fuzz/text_1000 > corpus/zstd_input_fuzz/truncated
records 300 | zstd -q --no-check -c > corpus/zstd_input_fuzz/no_checksum

# gzip, bzip2, xz: one of each, several members or streams, an empty one,
# one cut short, and gzip with a file name in its header.
c=corpus/compressed_input_fuzz
for tool in gzip bzip2 xz; do
  records 1000 | $tool -c > "$c/${tool}_text_1000"
  head -c 4096 /dev/zero | $tool -9 -c > "$c/${tool}_zeros_4096"
  : | $tool -c > "$c/${tool}_empty"
  cat "$c/${tool}_text_1000" "$c/${tool}_zeros_4096" > "$c/${tool}_two"
  head -c 30 "$c/${tool}_text_1000" > "$c/${tool}_truncated"
done
records 300 > "$c/name.txt" && gzip -c "$c/name.txt" > "$c/gzip_with_name" && rm "$c/name.txt"
