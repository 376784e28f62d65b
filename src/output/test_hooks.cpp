#include "src/output/test_hooks.h"

namespace gsort::test_hooks {

FinalWriteHook before_final_write = nullptr;

}  // namespace gsort::test_hooks
