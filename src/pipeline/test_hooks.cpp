#include "src/pipeline/test_hooks.h"

namespace gsort::test_hooks {

ChunkReadHook before_chunk_read = nullptr;
TempDeviceHook temp_device = nullptr;

}  // namespace gsort::test_hooks
