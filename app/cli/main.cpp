// warpscope: the headless command line. Runs lessons and launch specs on the simulator or a real
// GPU, inspects PTX, lists lessons, benchmarks the interpreter.
//
// Exit codes: 0 success, 1 a check failed, 2 bad usage or input, 3 the kernel faulted
// (out of bounds, deadlock, runaway loop), 4 device error (no GPU, JIT failure).
//
// This file only dispatches: each sub-command lives in its own cmd_<name>.cpp (cli.hpp).
#include "cli.hpp"
#include "runtime/lesson.hpp"
#include "warpscope_version.hpp"

#include <cstdio>
#include <iostream>

using namespace warpscope;

namespace {

const char* kUsage = R"(warpscope - step CUDA kernels warp by warp on a simulated GPU

usage:
  warpscope run prog.cu [more.cu|.cpp ...] [-I DIR] [-D NAME[=V]] [--gpu PRESET] [-- ARGS...]
                                 build a whole CUDA program (host code and kernels) and run it
                                 on the simulator; exit code: the program's, 3 if a kernel
                                 faulted, 2 for a build error
                                 --backend gpu: the same sources built by nvcc, run on the real GPU
  warpscope build prog.cu [more.cu|.cpp ...] -o PROG   the same program as a native executable
  warpscope compare prog.cu [...] [-- ARGS]   the program on the simulator and the GPU: both stdouts
                                 side by side, each launch's predicted and measured time
  warpscope run <lesson-dir | lesson-id | spec.json> [options]
      --param NAME=VALUE   override a lesson parameter (repeatable)
      --backend sim|gpu    run on the simulator (default) or a real NVIDIA GPU
      --json               machine-readable output
      --lines              per-source-line statistics (simulator)
      --metrics            Nsight Compute counters per launch and per source line (simulator)
                           (L1 and L2 hit rates from caches sized as the --gpu preset's, default h100)
      --save BUF=PATH      write a buffer's final contents as raw bytes (repeatable)
      --save-all DIR       write every buffer to DIR/<name>.bin
      --budget N           runaway-loop budget in warp-instructions (default 500000000)
      --threads T          spread each launch's blocks over T threads (default: every core); a
                           launch runs on one thread with --timed, initcheck/racecheck, or a
                           kernel with global atomics, fences or volatile global accesses
                           (--metrics spreads too: its caches replay the one-thread order)
      --check LIST         checkers, comma-separated: memcheck, synccheck (always on), initcheck,
                           racecheck (shared and global memory); reports make the exit code 3
      --race-track-mb N    racecheck: global memory covered by the race shadow (default 64; the
                           shadow takes 9 bytes per byte)
      --max-blocks N       sandbox: most blocks per launch (default 4194304)
      --device-memory SIZE sandbox: total cudaMalloc limit, e.g. 512M, 16G (default: half the RAM)
      --timed              cycle model: occupancy, predicted cycles and time, stall reasons (simulator)
      --warm               --timed with one L2 kept from launch to launch (default: each launch
                           from flushed caches, a cold single launch)
      --gpu PRESET         GPU for --timed (default h100; implies --timed): see 'warpscope gpus',
                           or a preset .json file
      --registers N        registers per thread for occupancy (from ptxas -v; default: lesson.json
                           "registers", else 32, estimated)
      --policy gto|lrr     warp scheduler: greedy-then-oldest (default) or loose round-robin
      --blocks-per-sm N    cap resident blocks per SM below the occupancy limit (study latency hiding)
      --timeline           the host program's timeline: copies, kernels and host calls per stream and
                           engine (simulator: modelled on the --gpu preset; GPU: measured with events)
      --trace FILE         write the timeline as Chrome trace JSON (Perfetto, chrome://tracing);
                           implies --timeline
  warpscope ptx <file.ptx> [--json]   parse PTX and list kernels, registers, shared memory, instructions
  warpscope compile <kernel.cu> [-o kernel.ptx] [--compiler auto|nvrtc|nvcc|clang] [--arch compute_75]
                    [--timeout SECONDS] [--list]
                                      CUDA C++ to PTX (NVRTC, nvcc, or clang with warpscope's prelude);
                                      errors as file:line:col; exit 2 on a compile error
  warpscope lessons [--json]          list the bundled lessons
  warpscope exercises [--json]        list every exercise (lesson, id, title, starter and solution files)
  warpscope grade <lesson> --exercise <id> --solution <file.cu|host.json> [--json] [--compiler NAME]
                                      grade a learner's file: correctness on several sizes, checkers,
                                      performance goals; exit 0 pass, 1 fail, 2 bad input;
                                      --seed S: the hidden parameter sets of an earlier grade
  warpscope grade-all <dir> --exercise <lesson>/<id> [--csv FILE] [--html FILE] [--threads T]
                    [--seed S] [--timeout SECONDS] [--cpu-seconds S] [--memory-mb M] [--json]
                                      grade a class: one file or folder per student, each in its
                                      own limited process, T at a time; a row per student
  warpscope serve [--bind ADDR] [--port N] [--token T] [--web DIR] [--workers W] [--queue Q] [--rate R]
                  [--compiler NAME] [--compile-timeout S]
                                      serve the web app and a compile service to a classroom
                                      (127.0.0.1 unless --bind; docs/serve.md; --help for all)
  warpscope gpus [--json]             list the GPU presets for --timed (built-in and JSON files)
  warpscope bench [--quick] [--threads T] [--only sim,all-cores,timed]
                                      interpreter speed in thread-instructions per second (one
                                      core, and blocks over T threads: default every core)
  warpscope compare <lesson|spec> [--param N=V] [--gpu h100] [--ncu hw.csv] [--json]
                                      simulator and real GPU side by side: outputs, times, counters
  warpscope time-compare <lesson|spec> [--gpu h100] [--repeat 20] [--param N=V] [--registers N]
                         [--save-json FILE] [--measured FILE] [--cold ncu.csv] [--launches 0,2,5-7]
                         [--goals] [--expect-miss K1,K2] [--expect-misorder F1,F2] [--warm] [--json]
                                      predicted time of each launch vs the real GPU (median of
                                      back-to-back launches); --measured replays a saved run,
                                      --cold adds one cold launch per kernel (ncu --csv); per
                                      launch family: rank agreement, share within 35 %, worst
  warpscope timeline-compare <lesson|spec> [--sweep NAME=V1,V2,...] [--param N=V] [--gpu h100]
                           [--repeat 7] [--trace-dir DIR] [--sim-only] [--json]
                                      simulated vs measured host-program timeline per variant
  warpscope ncu-compare <lesson|spec> <ncu.csv>
                                      simulator counters next to an Nsight Compute CSV (Markdown)
  warpscope help | --help             this text
  warpscope --version                 the version and the git commit it was built from
)";

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cout << kUsage;
        return 2;
    }
    std::string cmd = argv[1];
    fs::path lessonsDir = runtime::findLessonsDir(argv[0]);
    try {
        if (cmd == "run") return cmdRun(argc - 2, argv + 2, lessonsDir);
        if (cmd == "build") return buildProgramCmd(argc - 2, argv + 2);
        if (cmd == "ptx") return cmdPtx(argc - 2, argv + 2);
        if (cmd == "compile") return runCompile(argc - 2, argv + 2);
        if (cmd == "lessons") return cmdLessons(argc - 2, argv + 2, lessonsDir);
        if (cmd == "exercises") return cmdExercises(argc - 2, argv + 2, lessonsDir);
        if (cmd == "grade") return cmdGrade(argc - 2, argv + 2, lessonsDir);
        if (cmd == "grade-all") return cmdGradeAll(argc - 2, argv + 2, lessonsDir);
        if (cmd == "serve") return cmdServe(argc - 2, argv + 2);
        if (cmd == "gpus") return cmdGpus(argc - 2, argv + 2);
        if (cmd == "bench") return runBench(argc - 2, argv + 2, lessonsDir);
        if (cmd == "ncu-compare") return runNcuCompare(argc - 2, argv + 2);
        if (cmd == "compare" && argc > 2 && isWholeProgramArg(argv[2])) return compareProgram(argc - 2, argv + 2);
        if (cmd == "compare") return runCompare(argc - 2, argv + 2, lessonsDir);
        if (cmd == "time-compare") return runTimeCompare(argc - 2, argv + 2, lessonsDir);
        if (cmd == "timeline-compare") return runTimelineCompare(argc - 2, argv + 2, lessonsDir);
        if (cmd == "--version" || cmd == "version") {
            std::printf("warpscope %s (git %s)\n", kVersion, kGitCommit);
            return 0;
        }
        if (cmd == "help" || cmd == "--help" || cmd == "-h") {
            std::cout << kUsage;
            return 0;
        }
        std::cerr << "unknown command '" << cmd << "'\n" << kUsage;
        return 2;
    } catch (const Error& e) {
        std::cerr << "error (" << Error::kindName(e.kind()) << "): " << e.what() << "\n";
        return exitCodeFor(e);
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
