// The test runner. The tests read the bundled data (lessons, assets/gpus) from the source tree,
// wherever the build folder is.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "base/data_dir.hpp"

int main(int argc, char** argv) {
    warpscope::base::useDataDir(WARPSCOPE_SOURCE_DIR);
    return Catch::Session().run(argc, argv);
}
