// The one worker-thread pattern of the app's background models (the Compare and Timeline runs):
// a thread that runs the newest request, so the UI never blocks on a long run.
//  - request() replaces any queued request (only the latest is kept) and may delay the start
//    (debounce, e.g. while a slider moves); with cancelStale, a run in progress for an older
//    request is told to stop through its cancel flag and its result is dropped;
//  - result() is the latest finished run, shared with the UI thread under the mutex.
// The Session has its own worker (session_worker.hpp): it is a command queue, not a request.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace warpscope::gui {

template <class Request, class Result>
class BackgroundRunner {
public:
    // work(request, request id, cancel): runs on the worker thread; should stop soon once cancel
    // turns true (the result is then dropped).
    using Work = std::function<Result(const Request&, uint64_t, const std::atomic<bool>&)>;

    BackgroundRunner(Work work, bool cancelStale) : work_(std::move(work)), cancelStale_(cancelStale), thread_([this] { loop(); }) {}
    ~BackgroundRunner() {
        {
            std::lock_guard lk(m_);
            quit_ = true;
            pending_.reset();
            cancel_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    BackgroundRunner(const BackgroundRunner&) = delete;
    BackgroundRunner& operator=(const BackgroundRunner&) = delete;

    // Queues a run that starts `debounceSeconds` from now unless another request replaces it
    // first. Returns the request's id.
    uint64_t request(Request req, double debounceSeconds = 0.0) {
        uint64_t id;
        {
            std::lock_guard lk(m_);
            pending_ = std::move(req);
            pendingAt_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, debounceSeconds)));
            id = pendingId_ = ++nextId_;
            if (busy_ && cancelStale_) cancel_ = true;   // the run in progress is for an older request
        }
        cv_.notify_all();
        return id;
    }
    // The latest finished run (possibly for an older request), or null.
    std::shared_ptr<const Result> result() const {
        std::lock_guard lk(m_);
        return result_;
    }
    bool running() const {   // a run is queued or in progress
        std::lock_guard lk(m_);
        return busy_ || pending_.has_value();
    }
    uint64_t latestRequest() const {   // the id of the newest request (0 = none yet)
        std::lock_guard lk(m_);
        return nextId_;
    }
    bool waitIdle(double timeoutSeconds) {
        std::unique_lock lk(m_);
        return idle_.wait_for(lk, std::chrono::duration<double>(timeoutSeconds), [&] { return !busy_ && !pending_; });
    }

private:
    using Clock = std::chrono::steady_clock;
    void loop() {
        std::unique_lock lk(m_);
        for (;;) {
            cv_.wait(lk, [&] { return quit_ || pending_.has_value(); });
            if (quit_) break;
            // Debounce: a newer request moves the start time; wait until it has passed.
            while (pending_ && !quit_ && Clock::now() < pendingAt_) cv_.wait_until(lk, pendingAt_);
            if (quit_) break;
            if (!pending_) continue;
            Request req = std::move(*pending_);
            uint64_t id = pendingId_;
            pending_.reset();
            busy_ = true;
            cancel_ = false;
            lk.unlock();
            auto res = std::make_shared<const Result>(work_(req, id, cancel_));
            lk.lock();
            busy_ = false;
            if (!cancel_) result_ = std::move(res);
            if (!pending_) idle_.notify_all();
        }
        busy_ = false;
        idle_.notify_all();
    }

    Work work_;
    bool cancelStale_;
    mutable std::mutex m_;
    std::condition_variable cv_, idle_;
    std::optional<Request> pending_;
    Clock::time_point pendingAt_{};
    uint64_t nextId_ = 0, pendingId_ = 0;
    bool busy_ = false, quit_ = false;
    std::atomic<bool> cancel_{false};
    std::shared_ptr<const Result> result_;
    std::thread thread_;   // last: starts once everything above exists
};

} // namespace warpscope::gui
