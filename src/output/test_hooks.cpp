#include "src/output/test_hooks.h"

namespace gsort::test_hooks {

FinalWriteHook before_final_write = nullptr;
PathHook before_stats_rename = nullptr;

}  // namespace gsort::test_hooks
