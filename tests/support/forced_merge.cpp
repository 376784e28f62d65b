#include "tests/support/forced_merge.h"

namespace gsort_test {

ForcedMerge sort_forcing_merge(const TempDir& dir, const std::string& how, const std::vector<std::string>& args,
                               const std::vector<std::string>& env, const std::string& output) {
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"-T", dir.path(), "-v", dir.file("in"), "-o", dir.file(output)});
  ProcessOptions options = c_locale();
  options.env.insert(options.env.end(), env.begin(), env.end());
  options.env.push_back("GSORT_TEST_FINAL_MERGE=" + how);
  ForcedMerge run;
  run.result = run_process(argv, options);
  if (run.result.status() == "exit 0") run.out = read_file(dir.file(output));
  return run;
}

}  // namespace gsort_test
