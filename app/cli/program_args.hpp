// What `warpscope run/build/compare prog.cu` share (cmd_program.cpp, cmd_program_gpu.cpp): the
// parsed command line, the simulator run's sandbox, the exit code of a finished program.
#pragma once
#include "base/sandbox.hpp"
#include "cudart/build.hpp"

#include <cstdint>
#include <string>
#include <vector>

struct ProgramArgs {
    warpscope::cudart::BuildOptions build;
    std::vector<std::string> programArgs;
    std::string gpu, budget, check, threads, workDir;
    bool timed = false;
    bool gpuBackend = false;      // run --backend gpu
    std::string saveRun;          // run --backend gpu --save-run FILE
    std::string gpuRun;           // compare --gpu-run FILE
    uint64_t cpuSeconds = 120, timeoutSeconds = 300, memoryMb = 16384, processes = 64;
    bool cpuSecondsGiven = false;   // else the simulator's run gets cpuSeconds per thread a launch may use
};

enum class ProgramCommand { Run, Build, Compare };

// Parses the options; false (after a message on stderr) on bad usage.
bool parseProgramArgs(int argc, char** argv, ProgramArgs& a, ProgramCommand command);
// Builds for the simulator (clang, warpscope's runtime); diagnostics on stderr; false on failure.
bool buildForSimulator(ProgramArgs& a, std::string* exe);
// An unknown --gpu preset: a message and false.
bool checkPreset(const ProgramArgs& a);
// The sandbox of a simulator run (limits, folder, the runtime's environment); false after a message.
bool simulatorSpec(const ProgramArgs& a, const std::string& exe, warpscope::sandbox::Spec& spec);
// warpscope run's exit code for a finished program (its own; 3 on a fault; 124, 125, 128+N), the
// limit's message on stderr.
int programExitCode(const warpscope::sandbox::Result& r, bool faulted);

// cmd_program_gpu.cpp: run --backend gpu (compare prog.cu: cli.hpp).
int runProgramOnGpu(ProgramArgs& a);
