// base/sandbox: the runner stops each kind of abuse and names the limit; a normal program's exit
// code and output come through; the private folder is the working directory; with bubblewrap the
// system is read-only and there is no network, and without it the note says what is not isolated.
#include "base/sandbox.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

// Runs `script` with /bin/sh in the sandbox, capturing its output.
sandbox::Result runSh(const std::string& script, sandbox::Limits limits, std::string* out = nullptr, std::string* dir = nullptr,
                      bool isolate = true) {
    sandbox::Spec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.limits = limits;
    spec.captureOutput = true;
    spec.isolate = isolate;
    sandbox::Runner r(spec);
    std::string error;
    REQUIRE(r.start(&error));
    if (dir) *dir = r.workDir();
    sandbox::Result res = r.wait();
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(r.outFd(), buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    for (ssize_t n; (n = read(r.errFd(), buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    if (out) *out = text;
    return res;
}

sandbox::Limits quick() {
    sandbox::Limits l;
    l.cpuSeconds = 2;
    l.wallSeconds = 20;
    l.memoryMb = 2048;
    l.processes = 16;
    return l;
}

struct BwrapOff {   // pretends bubblewrap is not installed, for one test
    BwrapOff() { setenv("WARPSCOPE_BWRAP", "none", 1); }
    ~BwrapOff() { unsetenv("WARPSCOPE_BWRAP"); }
};

} // namespace

TEST_CASE("sandbox: a normal program's output and exit code, in a private working folder that is removed after", "[sandbox]") {
    std::string out, dir;
    auto r = runSh("pwd; echo hello; echo > made-here.txt && echo wrote; exit 7", quick(), &out, &dir);
    CHECK(r.exited);
    CHECK(r.exitCode == 7);
    CHECK(r.limit == sandbox::Limit::None);
    CHECK(out.find("hello\n") != std::string::npos);
    CHECK(out.find("wrote\n") != std::string::npos);
    CHECK(out.find(dir + "\n") == 0);   // pwd: the private folder
    CHECK(dir.find("warpscope-run-") != std::string::npos);
    CHECK_FALSE(fs::exists(dir));        // removed with the runner
}

TEST_CASE("sandbox: an endless loop stops at the CPU-time limit, and a sleeping one at the wall-clock limit", "[sandbox]") {
    auto t0 = std::chrono::steady_clock::now();
    auto r = runSh("while :; do :; done", quick());
    CHECK(r.limit == sandbox::Limit::CpuTime);
    CHECK(r.message.find("CPU-time limit (2 s") != std::string::npos);
    sandbox::Limits l = quick();
    l.wallSeconds = 1;
    auto w = runSh("sleep 30", l);
    CHECK(w.limit == sandbox::Limit::WallTime);
    CHECK(w.message.find("within 1 s (the wall-clock limit") != std::string::npos);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 90);   // a loaded 2-core machine: CPU seconds come slowly
}

TEST_CASE("sandbox: endless forking stops at the process limit, and every process it started goes too", "[sandbox]") {
    auto r = runSh("i=0; while [ $i -lt 300 ]; do sleep 30 & i=$((i+1)); done; wait", quick());
    CHECK(r.limit == sandbox::Limit::Processes);
    CHECK(r.message.find("process limit: it started more than 16 processes") != std::string::npos);
    // Nothing of it is left: its sleeps were in its process group.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(std::system("pgrep -f '^sleep 30$' > /dev/null") != 0);
}

TEST_CASE("sandbox: where it may make a pids cgroup (root), the program runs in its own, capped, and it is removed after", "[sandbox]") {
    for (bool isolate : {true, false}) {
        sandbox::Spec spec;
        spec.argv = {"/bin/sh", "-c", "cat /proc/self/cgroup"};
        spec.limits = quick();
        spec.captureOutput = true;
        spec.isolate = isolate;
        sandbox::Runner r(spec);
        std::string error;
        REQUIRE(r.start(&error));
        const std::string cg = r.pidsCgroup();
        if (cg.empty()) {
            r.wait();
            WARN("no pids cgroup can be made here (not root, or no writable cgroup file system): the poll alone holds the process limit");
            return;
        }
        std::ifstream maxFile(cg + "/pids.max");
        std::string max;
        maxFile >> max;
        CHECK(max == (isolate && r.isolated() ? "18" : "16"));   // the limit, and bwrap's two processes
        r.wait();
        std::string text;
        char buf[4096];
        for (ssize_t n; (n = read(r.outFd(), buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
        CHECK(text.find(fs::path(cg).filename().string()) != std::string::npos);   // the shell was in it
        CHECK_FALSE(fs::exists(cg));
    }
}

TEST_CASE("sandbox: a file larger than the file-size limit stops the program", "[sandbox]") {
    sandbox::Limits l = quick();
    l.fileSizeMb = 1;
    auto r = runSh("head -c 3000000 /dev/zero > big.bin", l);
    CHECK(r.limit == sandbox::Limit::FileSize);
    CHECK(r.message.find("file-size limit (1 MiB)") != std::string::npos);
}

TEST_CASE("sandbox: the address-space limit refuses a 100 GB allocation", "[sandbox]") {
    // dd asks for one 100 GB buffer: refused under the limit ("memory exhausted").
    std::string out;
    auto r = runSh("dd if=/dev/zero of=/dev/null bs=100G count=1", quick(), &out);
    CHECK(r.exited);
    CHECK(r.exitCode != 0);
    CHECK(out.find("memory exhausted") != std::string::npos);
}

TEST_CASE("sandbox: with bubblewrap the system is read-only and there is no network", "[sandbox]") {
    if (sandbox::bwrapPath().empty()) {
        WARN("bubblewrap is not installed: isolation not tested");
        CHECK_FALSE(sandbox::isolationNote().empty());
        return;
    }
    CHECK(sandbox::isolationNote().empty());
    const fs::path outside = fs::path(WARPSCOPE_SOURCE_DIR) / "build-sandbox-outside.txt";
    std::error_code ec;
    fs::remove(outside, ec);
    std::string out;
    auto r = runSh("echo x > '" + outside.string() + "' && echo escaped; echo inside > ok.txt && echo inside-ok", quick(), &out);
    CHECK(r.exited);
    CHECK_FALSE(fs::exists(outside));
    CHECK(out.find("Read-only file system") != std::string::npos);
    CHECK(out.find("escaped") == std::string::npos);
    CHECK(out.find("inside-ok") != std::string::npos);
    // No network: only a loopback device in its own namespace.
    std::string net;
    runSh("cat /proc/net/dev", quick(), &net);
    CHECK(net.find("lo:") != std::string::npos);
    CHECK(net.find("eth") == std::string::npos);
    CHECK(net.find("ens") == std::string::npos);
}

TEST_CASE("sandbox: without bubblewrap the limits still hold and the note says what is not isolated", "[sandbox]") {
    BwrapOff off;
    CHECK(sandbox::bwrapPath().empty());
    const std::string note = sandbox::isolationNote();
    CHECK(note.find("bubblewrap (bwrap) is not installed") != std::string::npos);
    CHECK(note.find("network") != std::string::npos);
    auto r = runSh("while :; do :; done", quick());
    CHECK(r.limit == sandbox::Limit::CpuTime);
    auto p = runSh("i=0; while [ $i -lt 300 ]; do sleep 30 & i=$((i+1)); done; wait", quick());
    CHECK(p.limit == sandbox::Limit::Processes);
}

TEST_CASE("sandbox: Stop ends the program and all it started", "[sandbox]") {
    sandbox::Spec spec;
    spec.argv = {"/bin/sh", "-c", "sleep 40 & sleep 40"};
    spec.limits = quick();
    sandbox::Runner r(spec);
    std::string error;
    REQUIRE(r.start(&error));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK_FALSE(r.poll());
    r.stop();
    CHECK(r.result().limit == sandbox::Limit::Stopped);
    CHECK_FALSE(r.running());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(std::system("pgrep -f '^sleep 40$' > /dev/null") != 0);
}

TEST_CASE("sandbox: a program that cannot start says why", "[sandbox]") {
    sandbox::Spec spec;
    spec.argv = {"/nonexistent/program"};
    spec.isolate = false;
    spec.captureOutput = true;
    sandbox::Runner r(spec);
    std::string error;
    REQUIRE(r.start(&error));
    auto res = r.wait();
    CHECK(res.exited);
    CHECK(res.exitCode == 127);
    char buf[512];
    ssize_t n = read(r.errFd(), buf, sizeof buf);
    REQUIRE(n > 0);
    CHECK(std::string(buf, static_cast<size_t>(n)).find("cannot start /nonexistent/program") != std::string::npos);
}
