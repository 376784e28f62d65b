# fish completion for gsort: options, their values (key types, backends,
# algorithms, formats) and file names. Installed as
# share/fish/vendor_completions.d/gsort.fish.

# --key OFFSET:TYPE[:desc]: after "OFFSET:" the types, after "OFFSET:TYPE:" desc.
function __gsort_key_values
    set -l value (string replace -r -- '^--key=' '' (commandline -ct))
    set -l types u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 u16be u32be u64be i16be i32be i64be f32be f64be
    if set -l typed (string match -r -- '^[0-9]+:[a-z0-9]+:' $value)
        echo $typed"desc"
    else if set -l offset (string match -r -- '^[0-9]+:' $value)
        printf '%s\n' $offset$types
    end
end

complete -c gsort -s o -l output -r -F -d 'Write the result to FILE'
complete -c gsort -l record-size -x -d 'Records are N bytes long'
complete -c gsort -s k -l key -x -a '(__gsort_key_values)' -d 'Key: OFFSET:LENGTH or OFFSET:TYPE[:desc]'
complete -c gsort -l format -x -a gensort -d 'A known record layout'
complete -c gsort -s r -l reverse -d 'Reverse the order'
complete -c gsort -s u -l unique -d 'Keep the first record of each run of equal keys'
complete -c gsort -s s -l stable -d 'Lines: no last-resort comparison; records: always stable'
complete -c gsort -s t -l field-separator -x -d 'Lines: the field separator'
complete -c gsort -s n -l numeric-sort -d 'Lines: compare by numeric value'
complete -c gsort -s h -l human-numeric-sort -d 'Lines: compare human-readable sizes (2K 1G)'
complete -c gsort -s f -l ignore-case -d 'Lines: fold lower case to upper case'
complete -c gsort -s b -l ignore-leading-blanks -d 'Lines: ignore leading blanks of key fields'
complete -c gsort -s z -l zero-terminated -d 'Lines end with NUL, not newline'
complete -c gsort -s d -l dictionary-order -d 'Lines: compare only blanks, letters and digits'
complete -c gsort -s g -l general-numeric-sort -d 'Lines: compare as strtold reads numbers'
complete -c gsort -s i -l ignore-nonprinting -d 'Lines: compare only printable bytes'
complete -c gsort -s M -l month-sort -d 'Lines: compare month names'
complete -c gsort -s R -l random-sort -d 'Lines: shuffle, grouping identical keys'
complete -c gsort -l random-source -r -F -d 'Lines: -R takes its key from FILE'
complete -c gsort -s V -l version-sort -d 'Lines: natural sort of version numbers'
complete -c gsort -l sort -x -a 'general-numeric human-numeric month numeric random version' -d 'Lines: sort by WORD'
complete -c gsort -s c -l check -d 'Check whether the input is sorted'
complete -c gsort -s C -d 'Like -c, but report nothing'
complete -c gsort -s m -l merge -d 'Merge inputs that are already sorted'
complete -c gsort -s S -l memory -x -d 'Host memory budget (b K M G T P E or %)'
complete -c gsort -l buffer-size -x -d 'Host memory budget, as -S (GNU sort\'s name)'
complete -c gsort -l debug -d 'Lines: annotate the keys of each output line, and warn about the options'
complete -c gsort -l files0-from -r -F -d 'Read the inputs from the NUL-ended names in FILE'
complete -c gsort -l compress-program -x -a '(__fish_complete_command)' -d 'Compress temporary files with PROG, read them back with PROG -d'
complete -c gsort -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Directory for temporary files'
complete -c gsort -l parallel -x -d 'Use N threads'
complete -c gsort -l batch-size -x -d 'Merge at most N inputs or runs at once'
complete -c gsort -l output-parts -d '-o names a directory of part-NNNNN files, one per rank'
complete -c gsort -l backend -x -a 'auto gpu cpu hybrid' -d 'Where chunks are sorted'
complete -c gsort -l algorithm -x -a 'auto cub radix merge' -d 'The GPU chunk sort'
complete -c gsort -l exchange -x -a 'auto shm mpi nccl' -d 'How ranks trade records under mpirun'
complete -c gsort -l device -x -d 'The CUDA device to use'
complete -c gsort -l gpu-memory -x -d 'Device memory gsort may take'
complete -c gsort -l compress-temp -d 'Compress spilled runs with zstd (--compress-temp=auto|on|off|LEVEL)'
complete -c gsort -l spill-streams -x -d 'Write each spilled run as N files at once'
complete -c gsort -l page-cache -x -a 'keep drop' -d 'What gsort leaves of the input in the page cache'
complete -c gsort -l compress-output -d 'Compress the output as its suffix says: .zst .gz .bz2 .xz (--compress-output=LEVEL)'
complete -c gsort -l decompress -a 'auto no' -d 'Decode inputs by their magic too (--decompress=auto|no)'
complete -c gsort -l verify -d 'Check the output against the input'
complete -c gsort -l no-verify -d 'Do not --verify (the default)'
complete -c gsort -l no-space-check -d 'Start even without room for what the sort writes'
complete -c gsort -l fsync -d 'Flush the output to stable storage before exiting'
complete -c gsort -l progress -d 'Show the progress line even off a terminal'
complete -c gsort -l no-progress -d 'Never show the progress line'
complete -c gsort -l stats -r -F -d 'Write statistics of the run as JSON to FILE'
complete -c gsort -l trace -r -F -d 'Write the timeline of the run as a Chrome trace to FILE'
complete -c gsort -l to-terminal -d 'Write binary output to standard output even on a terminal'
complete -c gsort -s v -l verbose -d 'Report sizes and phase timings'
complete -c gsort -l help -d 'Show the help and exit'
complete -c gsort -l version -d 'Show the version and build details and exit'
