// The compile service behind POST /api/compile: a bounded queue in front of W worker threads, one
// compile for identical requests (in flight or recently done), a per-client token bucket, and the
// default compile function, which runs the compile layer (compile::compileCached with its time
// limit) in a sandboxed child process (base/sandbox: rlimits, bubblewrap where present).
// Engine-free apart from the compile and sandbox layers; driven by tests with a fake CompileFn.
#pragma once
#include "compile/compile.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace warpscope::serve {

struct CompileJob {
    std::string source;
    std::string file = "kernel.cu";
    std::string arch = "compute_75";
};

struct CompileOutcome {
    compile::Result result;     // what the compile layer said (ok, ptx, diagnostics, error, timedOut)
    bool serverError = false;   // the service itself failed (the child could not start, bad reply): HTTP 500
};

// Runs one compile; called on a worker thread. `cancelled` turns true when the server stops.
using CompileFn = std::function<CompileOutcome(const CompileJob&, const std::atomic<bool>& cancelled)>;

struct SandboxedCompileConfig {
    std::string executable;              // the warpscope binary, run as `<exe> serve --compile-child JOB`
    std::string workRoot;                // shared folder for jobs, temporary files and the PTX cache
    compile::Compiler compiler = compile::Compiler::Auto;
    double timeoutSeconds = 20;          // the compile layer's limit; the sandbox's wall limit is this + 5 s
    uint64_t memoryMb = 4096;            // RLIMIT_AS of the child (clang, or NVRTC in the child)
};
// The default CompileFn: one sandboxed child per compile (see docs/serve.md, "Sandbox").
CompileFn sandboxedCompiler(SandboxedCompileConfig config);
// The child's side: reads the job file (JSON), compiles with compileCached, prints the result as
// JSON on stdout; returns the exit code. `warpscope serve --compile-child JOB COMPILER TIMEOUT`.
int runCompileChild(const std::string& jobFile, const std::string& compiler, double timeoutSeconds);

// Per-client token bucket: `perMinute` requests a minute, bursts of up to `perMinute`.
class RateLimiter {
public:
    explicit RateLimiter(double perMinute) : perMinute_(perMinute) {}
    // True when `client` may go ahead now (takes a token); else false and *retryAfter (seconds).
    bool take(const std::string& client, double* retryAfterSeconds = nullptr);
    bool enabled() const { return perMinute_ > 0; }
private:
    struct Bucket { double tokens; std::chrono::steady_clock::time_point last; };
    double perMinute_;
    std::mutex m_;
    std::unordered_map<std::string, Bucket> buckets_;
};

struct ServiceConfig {
    unsigned workers = 2;
    unsigned queue = 64;          // jobs waiting for a worker, beyond those running
    size_t cacheEntries = 512;    // finished results kept in memory (ok or with compile errors)
};

class CompileService {
public:
    CompileService(ServiceConfig config, CompileFn fn);
    ~CompileService();            // stop()
    CompileService(const CompileService&) = delete;
    CompileService& operator=(const CompileService&) = delete;

    struct Ticket {
        enum class Kind { Queued, QueueFull, Stopping } kind = Kind::Queued;
        std::shared_future<CompileOutcome> outcome;
        bool shared = false;      // joined an identical request in flight or found it finished
        std::chrono::steady_clock::time_point submitted;
        std::shared_ptr<std::chrono::steady_clock::time_point> started;   // set when a worker takes it
    };
    // Queues a job, or joins an identical one; QueueFull when `queue` jobs already wait.
    Ticket submit(const CompileJob& job);
    // Cancels running compiles, fails waiting ones ("the server is stopping"), joins the workers.
    void stop();

    unsigned workers() const { return config_.workers; }
    unsigned queueLimit() const { return config_.queue; }
    size_t waiting();             // jobs queued, not yet taken by a worker
    uint64_t compilesRun();       // CompileFn calls so far (a test proves sharing with it)

private:
    struct Pending {
        std::string key;
        CompileJob job;
        std::promise<CompileOutcome> promise;
        std::shared_future<CompileOutcome> future;
        std::shared_ptr<std::chrono::steady_clock::time_point> started;
    };
    void work();
    struct Cached {
        std::string key;
        CompileJob job;
        CompileOutcome outcome;
    };
    void remember(const Pending& p, const CompileOutcome& o);

    ServiceConfig config_;
    CompileFn fn_;
    std::atomic<bool> stopping_{false};
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::shared_ptr<Pending>> queue_;
    std::unordered_map<std::string, std::shared_ptr<Pending>> inFlight_;   // queued or running, by key
    std::list<Cached> lru_;                                                // most recent first
    std::unordered_map<std::string, std::list<Cached>::iterator> lruIndex_;
    uint64_t runs_ = 0;
    std::vector<std::thread> threads_;
};

// The key identical requests share: a hash of the source, file name and architecture (a hit is
// also compared in full, so a collision only costs a compile).
std::string jobKey(const CompileJob& job);

// A compile layer result as the API's JSON (ok, ptx, diagnostics, error, compiler, timedOut,
// cached), and back (the child's reply to the server).
nlohmann::json resultJson(const compile::Result& r);
compile::Result resultFromJson(const nlohmann::json& j);

} // namespace warpscope::serve
