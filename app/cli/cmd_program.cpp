// warpscope run prog.cu / warpscope build prog.cu -o prog: a whole CUDA program (host code and
// kernels) built against warpscope's CUDA runtime (engine/cudart) and run on the simulator.
//
// The program runs in the sandbox (base/sandbox.hpp): a child process with resource limits (CPU
// time, address space, file size, processes), a wall-clock limit, a private working folder, and
// with bubblewrap a read-only system and no network; its stdout and stderr pass through. Exit
// codes: the program's own; 3 when a kernel faulted or a checker reported (the runtime notes it
// in the private folder); 2 for a build error or bad usage; 128+N when a signal ended it; 124
// past the wall-clock limit; 125 when the sandbox stopped it for memory, network or a write
// outside its folder (the message names the limit).
#include "cli.hpp"
#include "program_args.hpp"
#include "base/data_dir.hpp"
#include "base/parse_number.hpp"
#include "base/sandbox.hpp"
#include "cudart/build.hpp"
#include "timing/gpu_spec.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

const char* kProgramUsage = R"(usage:
  warpscope run prog.cu [more.cu|.cpp ...] [options] [-- ARGS...]
  warpscope build prog.cu [more.cu|.cpp ...] -o PROG [options]
  warpscope compare prog.cu [more.cu|.cpp ...] [options] [-- ARGS...]
options:
  -I DIR            add an include folder (also -IDIR)
  -D NAME[=VALUE]   define a macro (also -DNAME)
  -lcublas          link warpscope's cuBLAS subset (also when a source includes cublas_v2.h);
                    -lcudart is accepted (the runtime is always linked)
  --gpu PRESET      the GPU the program's device reports (default h100)
  --cpu-seconds N   CPU-time limit of the program (default 120 per simulator thread: 120 x
                    --threads, the threads counting against it)
  --timeout N       wall-clock limit in seconds (default 300)
  --memory-mb N     address-space limit of the program in MiB (default 16384)
  --processes N     processes the program may run at once (default 64)
  --workdir DIR     run the program in DIR, the only folder it may write (default: a private
                    empty folder, removed afterwards, so files beside the program are not there;
                    --workdir . lets it read its input files and write its results where you are)
  --check LIST      initcheck,racecheck: report uninitialised reads and shared/global-memory
                    races on stderr (exit code 3 when one reports)
  --threads N       simulator threads per launch (default: every core; a launch whose blocks
                    may talk to each other runs on one; the results are the same)
  --budget N        warp-instructions per launch before a kernel counts as a runaway loop
                    (cudaErrorLaunchTimeout; default 500000000)
  --timed           run every kernel through the cycle model: cudaEventElapsedTime gives its
                    times and each launch's modelled time is printed on stderr (about ten times
                    slower; without it a kernel's time on the timeline is its issue-rate bound)
  --no-cache        rebuild even when the same build is cached
  --backend gpu     run: build the same sources with the CUDA toolkit's nvcc and run the program
                    natively, its kernels on the real GPU (each launch timed with CUDA events);
                    exit code 2 where there is no nvcc or no GPU
  --save-run FILE   run --backend gpu: also write the run (output, exit code, each launch's GPU
                    time) as JSON, for compare --gpu-run on a machine without a GPU
  --gpu-run FILE    compare: the GPU side from a saved run instead of running it here
compare runs the program on the simulator (every kernel through the cycle model) and on the GPU,
and shows both runs' stdout side by side and each launch's predicted and measured time.
)";

} // namespace

// Parses the options common to run, build and compare; false (after a message) on bad usage.
bool parseProgramArgs(int argc, char** argv, ProgramArgs& a, ProgramCommand command) {
    const bool allowOutput = command == ProgramCommand::Build;
    for (int i = 0; i < argc; ++i) {
        std::string s = argv[i];
        if (s == "--") {
            for (++i; i < argc; ++i) a.programArgs.push_back(argv[i]);
            break;
        }
        if (s == "-I" || s == "-D" || s == "-o" || s == "--gpu" || s == "--cpu-seconds" || s == "--timeout" || s == "--memory-mb" || s == "--processes" || s == "--budget" ||
            s == "--check" || s == "--threads" || s == "--workdir" || s == "--backend" || s == "--save-run" || s == "--gpu-run") {
            if (i + 1 >= argc) {
                std::cerr << "warpscope: " << s << " needs a value\n" << kProgramUsage;
                return false;
            }
            std::string v = argv[++i];
            if (s == "-I") a.build.includeDirs.push_back(v);
            else if (s == "-D") a.build.defines.push_back(v);
            else if (s == "-o" && allowOutput) a.build.output = v;
            else if (s == "--gpu") a.gpu = v;
            else if (s == "--cpu-seconds") {
                a.cpuSeconds = parseCount(v, s);
                a.cpuSecondsGiven = true;
            }
            else if (s == "--timeout") a.timeoutSeconds = parseCount(v, s);
            else if (s == "--memory-mb") a.memoryMb = parseCount(v, s);
            else if (s == "--processes") a.processes = parseCount(v, s);
            else if (s == "--budget") a.budget = std::to_string(parseCount(v, s));
            else if (s == "--threads") {
                const uint64_t t = parseCount(v, s);
                if (t < 1 || t > 1024) {
                    std::cerr << "warpscope: --threads needs a number from 1 to 1024\n";
                    return false;
                }
                a.threads = std::to_string(t);
            }
            else if (s == "--workdir") a.workDir = v;
            else if (s == "--backend" && command == ProgramCommand::Run) {
                if (v != "sim" && v != "gpu") {
                    std::cerr << "warpscope: --backend is 'sim' (the simulator, the default) or 'gpu' (the real GPU, built with nvcc)\n";
                    return false;
                }
                a.gpuBackend = v == "gpu";
            }
            else if (s == "--save-run" && command == ProgramCommand::Run) a.saveRun = v;
            else if (s == "--gpu-run" && command == ProgramCommand::Compare) a.gpuRun = v;
            else if (s == "--check") {
                for (size_t p = 0; p <= v.size();) {
                    size_t e = v.find(',', p);
                    std::string tool = v.substr(p, e == std::string::npos ? std::string::npos : e - p);
                    if (tool != "initcheck" && tool != "racecheck" && tool != "memcheck" && tool != "synccheck") {
                        std::cerr << "warpscope: --check takes initcheck, racecheck (memcheck and synccheck are always on), not '" << tool << "'\n";
                        return false;
                    }
                    if (e == std::string::npos) break;
                    p = e + 1;
                }
                a.check = v;
            }
            else {
                std::cerr << "warpscope: " << s << (s == "-o" ? " is an option of warpscope build\n" : s == "--gpu-run" ? " is an option of warpscope compare\n" : " is an option of warpscope run\n") << kProgramUsage;
                return false;
            }
        } else if (s.size() > 2 && s.rfind("-I", 0) == 0) {
            a.build.includeDirs.push_back(s.substr(2));
        } else if (s.size() > 2 && s.rfind("-D", 0) == 0) {
            a.build.defines.push_back(s.substr(2));
        } else if (s == "--no-cache") {
            a.build.useCache = false;
        } else if (s == "--timed") {
            a.timed = true;
        } else if (s == "-lcublas" || s == "-lcudart") {
            // As nvcc users pass them: the CUDA runtime is always linked, and -lcublas links
            // warpscope's cuBLAS subset (also linked when a source includes <cublas_v2.h>).
            if (s == "-lcublas") a.build.cublas = true;
        } else if (!s.empty() && s[0] == '-') {
            std::cerr << "warpscope: unknown option '" << s << "'\n" << kProgramUsage;
            return false;
        } else {
            a.build.sources.push_back(s);
        }
    }
    if (a.build.sources.empty()) {
        std::cerr << "warpscope: no source files\n" << kProgramUsage;
        return false;
    }
    if (!a.saveRun.empty() && !a.gpuBackend) {
        std::cerr << "warpscope: --save-run records a run on the GPU: use it with --backend gpu\n";
        return false;
    }
    if (a.gpuBackend && (a.timed || !a.check.empty() || !a.budget.empty() || !a.threads.empty())) {
        std::cerr << "warpscope: --timed, --check, --budget and --threads are the simulator's; --backend gpu runs the program as nvcc builds it\n";
        return false;
    }
    return true;
}

// Builds; prints diagnostics as file:line:col; false on failure.
bool buildForSimulator(ProgramArgs& a, std::string* exe) {
    cudart::BuildResult r = cudart::buildProgram(a.build);
    for (auto& d : r.diagnostics) std::cerr << d.text() << "\n";
    if (!r.ok) {
        if (!r.error.empty()) std::cerr << "warpscope: build failed: " << r.error << "\n";
        else std::cerr << "warpscope: build failed\n";
        if (std::getenv("WARPSCOPE_BUILD_LOG")) std::cerr << r.log;
        return false;
    }
    *exe = r.executable;
    return true;
}

namespace {

const char* limitName(int sig) {
    switch (sig) {
    case SIGXCPU: return " (the CPU-time limit, --cpu-seconds)";
    case SIGXFSZ: return " (the file-size limit)";
    case SIGKILL: return " (killed)";
    case SIGSEGV: return " (segmentation fault: a bad pointer in host code, or a device pointer dereferenced on the host?)";
    case SIGABRT: return " (aborted)";
    default: return "";
    }
}

} // namespace

bool simulatorSpec(const ProgramArgs& a, const std::string& exe, sandbox::Spec& spec) {
    spec.argv = {exe};
    spec.argv.insert(spec.argv.end(), a.programArgs.begin(), a.programArgs.end());
    // The CPU-time limit counts every thread: by default 120 s for each one a launch may use
    // (the runtime's default is every core), so spreading a launch does not shorten its limit.
    spec.limits.cpuSeconds = a.cpuSeconds;
    if (!a.cpuSecondsGiven)
        spec.limits.cpuSeconds *= a.threads.empty() ? std::max(1u, std::thread::hardware_concurrency()) : std::stoull(a.threads);
    spec.limits.wallSeconds = a.timeoutSeconds;
#if !defined(__SANITIZE_ADDRESS__)
    spec.limits.memoryMb = a.memoryMb;
#else
    // A sanitized build links programs with AddressSanitizer, whose shadow memory reserves
    // terabytes of address space: no address-space limit there (scripts/sanitize.sh).
    spec.limits.memoryMb = 0;
#endif
    spec.limits.processes = a.processes;
    if (!a.workDir.empty()) {
        std::error_code ec;
        fs::path dir = fs::absolute(a.workDir, ec);
        if (ec || !fs::is_directory(dir, ec)) {
            std::cerr << "warpscope: --workdir " << a.workDir << ": no such folder\n";
            return false;
        }
        spec.workDir = dir.lexically_normal().string();
        fs::remove(dir / ".warpscope-status", ec);   // a status left by an earlier run is not this run's
    }
    const std::string dataDir = base::findDataDir().string();
    if (!dataDir.empty()) spec.env.push_back({"WARPSCOPE_DATA_DIR", dataDir});
    if (!a.gpu.empty()) spec.env.push_back({"WARPSCOPE_GPU", a.gpu});
    if (!a.budget.empty()) spec.env.push_back({"WARPSCOPE_BUDGET", a.budget});
    if (!a.check.empty()) spec.env.push_back({"WARPSCOPE_CHECK", a.check});
    if (!a.threads.empty()) spec.env.push_back({"WARPSCOPE_THREADS", a.threads});
    if (a.timed) spec.env.push_back({"WARPSCOPE_TIMED", "1"});
    // The program's stdout line by line even into a pipe, so what it printed before a limit
    // stopped it is not lost in a buffer, and it interleaves with stderr as on a terminal.
    spec.env.push_back({"WARPSCOPE_LINE_BUFFERED", "1"});
    return true;
}

bool checkPreset(const ProgramArgs& a) {
    if (a.gpu.empty()) return true;
    try {
        timing::findPreset(a.gpu, timing::presetFolders());   // an unknown name is an error now, not a generic GPU later
    } catch (const Error& e) {
        std::cerr << "warpscope: --gpu: " << e.what() << "\n";
        return false;
    }
    return true;
}

int runProgram(int argc, char** argv) {
    ProgramArgs a;
    if (!parseProgramArgs(argc, argv, a, ProgramCommand::Run)) return 2;
    if (a.gpuBackend) return runProgramOnGpu(a);
    if (!checkPreset(a)) return 2;
    std::string exe;
    if (!buildForSimulator(a, &exe)) return 2;

    sandbox::Spec spec;
    if (!simulatorSpec(a, exe, spec)) return 2;
    if (const std::string note = sandbox::isolationNote(); !note.empty()) std::cerr << note << "\n";
    sandbox::Runner runner(spec);
    std::string error;
    if (!runner.start(&error)) {
        std::cerr << "warpscope: " << error << "\n";
        return 2;
    }
    const sandbox::Result r = runner.wait();
    // Where the runtime notes a kernel fault or a checker's report (in the private folder).
    std::string statusText;
    {
        std::ifstream f(runner.workDir() + "/.warpscope-status");
        std::getline(f, statusText);
    }
    if (!a.workDir.empty()) {   // the learner's folder keeps only what the program wrote
        std::error_code ec;
        fs::remove(runner.workDir() + "/.warpscope-status", ec);
    }
    const bool faulted = statusText == "fault" || statusText == "check";
    return programExitCode(r, faulted);
}

int programExitCode(const sandbox::Result& r, bool faulted) {
    if (r.limit != sandbox::Limit::None) {
        std::cerr << r.message << "\n";
        if (r.limit == sandbox::Limit::WallTime) return 124;
        if (r.limit == sandbox::Limit::CpuTime || r.limit == sandbox::Limit::FileSize) return faulted ? 3 : 128 + r.signal;
        return 125;   // the sandbox stopped it: processes, memory, network, a write outside its folder
    }
    if (!r.exited) {
        std::cerr << "warpscope: the program was ended by signal " << r.signal << " (" << strsignal(r.signal) << ")" << limitName(r.signal) << "\n";
        return faulted ? 3 : 128 + r.signal;
    }
    if (faulted) return 3;
    return r.exitCode;
}

int buildProgramCmd(int argc, char** argv) {
    ProgramArgs a;
    if (!parseProgramArgs(argc, argv, a, ProgramCommand::Build)) return 2;
    if (a.build.output.empty()) {
        std::cerr << "warpscope build: name the program with -o FILE\n" << kProgramUsage;
        return 2;
    }
    std::string exe;
    if (!buildForSimulator(a, &exe)) return 2;
    std::cout << "built " << exe << "\n";
    return 0;
}

bool isWholeProgramArg(const std::string& arg) { return cudart::isProgramSource(arg); }
