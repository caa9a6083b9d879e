// What the CLI's sub-commands share: their entry points (called by main.cpp only) and the few
// helpers more than one of them uses. Sub-command files include this header, never each other.
#pragma once
#include "base/error.hpp"
#include "runtime/timeline.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace fs = std::filesystem;

// One function per sub-command, each in its own cmd_<name>.cpp. argv starts after the command.
int cmdRun(int argc, char** argv, const fs::path& lessonsDir);
int cmdPtx(int argc, char** argv);
int cmdLessons(int argc, char** argv, const fs::path& dir);
int cmdGpus(int argc, char** argv);
int runCompile(int argc, char** argv);   // cmd_compile.cpp
int runBench(int argc, char** argv, const fs::path& lessonsDir);
int runNcuCompare(int argc, char** argv);
int runCompare(int argc, char** argv, const fs::path& lessonsDir);
int runTimeCompare(int argc, char** argv, const fs::path& lessonsDir);
int runTimelineCompare(int argc, char** argv, const fs::path& lessonsDir);
int cmdExercises(int argc, char** argv, const fs::path& lessonsDir);   // cmd_exercises.cpp
int cmdGrade(int argc, char** argv, const fs::path& lessonsDir);       // cmd_grade.cpp
int cmdGradeAll(int argc, char** argv, const fs::path& lessonsDir);    // cmd_grade_all.cpp
int runProgram(int argc, char** argv);        // cmd_program.cpp: warpscope run prog.cu ...
int buildProgramCmd(int argc, char** argv);   // cmd_program.cpp: warpscope build prog.cu -o prog
int compareProgram(int argc, char** argv);    // cmd_program_gpu.cpp: warpscope compare prog.cu (simulator vs GPU)
int cmdServe(int argc, char** argv);          // cmd_serve.cpp: the web app and compile service (serve/)
bool isWholeProgramArg(const std::string& arg);   // a .cu/.cpp/.c source: run it as a whole program

// Exit codes: 0 success, 1 a check failed, 2 bad usage or input, 3 the kernel faulted
// (out of bounds, deadlock, runaway loop), 4 device error (no GPU, JIT failure).
int exitCodeFor(const warpscope::Error& e);

// A lesson folder, lesson id (under lessonsDir) or spec file named on the command line.
fs::path resolveLessonArg(const std::string& arg, const fs::path& lessonsDir);

// A host-program timeline as JSON (run --timeline --json, timeline-compare --json).
nlohmann::json timelineJson(const warpscope::runtime::Timeline& t);

// The value after the option argv[i] (i moves to it); Error(Input) "<option> needs a value."
// when there is none.
std::string optionValue(int argc, char** argv, int& i);

// One --param NAME=VALUE into `overrides`; Error(Input) when there is no '='.
void addParamOverride(const std::string& kv, std::map<std::string, std::string>& overrides);
