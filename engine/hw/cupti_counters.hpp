// Hardware counters of each kernel launch, read live through CUPTI's range profiler.
//
// libcupti is opened with dlopen at run time, like the driver: nothing links against it. The
// code that speaks to it is compiled only where the CUDA toolkit's CUPTI headers are found at
// configure time (WARPSCOPE_HAVE_CUPTI); elsewhere cuptiAvailability() says so and the compare
// views fall back to importing an `ncu --csv` file.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace warpscope::hw {

class CudaDevice;

// "" when CUPTI can profile, else why not, in one sentence (never throws).
std::string cuptiAvailability();

// Runs `work` (which launches kernels on `device`) with CUPTI's range profiler on: every kernel
// launch is one range, replayed as often as the metrics need (kernel replay restores its memory
// between passes). Returns the metrics' values per launch, in launch order. Throws
// Error(Kind::Device) with CUPTI's message when profiling fails; metrics the chip does not have
// make it fail too.
std::vector<std::map<std::string, double>> profileWithCupti(CudaDevice& device, const std::vector<std::string>& metrics,
                                                            const std::function<void()>& work);

} // namespace warpscope::hw
