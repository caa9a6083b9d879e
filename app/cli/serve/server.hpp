// `warpscope serve`'s HTTP server: POSIX sockets, one thread per connection up to a maximum,
// deadlines on every read and write (a slow or vanished client cannot hold a thread), keep-alive,
// and the routes of docs/serve.md: the web app's files (with the cross-origin isolation headers),
// GET /api/health and POST /api/compile (through a CompileService). One log line per request.
// HTTP parsing lives in http.hpp; compiling in compile_service.hpp. Tests drive it on port 0.
#pragma once
#include "serve/compile_service.hpp"
#include "serve/http.hpp"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace warpscope::serve {

struct ServerConfig {
    std::string bind = "127.0.0.1";
    int port = 8080;                      // 0: any free port (port() tells which)
    std::string token;                    // when set, POST /api/compile needs "Authorization: Bearer <token>"
    std::string webDir;                   // the web build's files; empty: only the API
    double ratePerMinute = 30;            // compiles per client address a minute (0: no limit)
    unsigned maxConnections = 256;        // open connections at once; more get 503 and are closed
    unsigned maxPerClient = 64;           // of those, from one client address (a slow-loris client cannot take them all)
    double idleSeconds = 15;              // a kept-alive connection with no new request is closed
    double headerSeconds = 10;            // a request's head must arrive within this after its first byte
    double bodySeconds = 15;              // and its body within this after the head
    double writeSeconds = 30;             // a client that does not read its answer for this long is dropped
    std::string version;                  // for /api/health
    std::vector<std::string> compilers;   // for /api/health (compile::available())
    std::string compiler;                 // the compiler the service uses ("auto", "clang", ...), for the log
    std::function<void(const std::string&)> log;   // one line per request (default: stderr)
};

class Server {
public:
    Server(ServerConfig config, CompileService& service);
    ~Server();   // stop()
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds and listens; false with *error set when it cannot (address in use, bad address).
    bool listen(std::string* error);
    int port() const { return port_; }
    const ServerConfig& config() const { return config_; }

    // Accepts connections until stop(); start() does it on a thread of its own.
    void run();
    void start();
    // Stops accepting, stops the compile service (waiting compiles get 503), lets open connections
    // finish their current answer, and waits for them (at most `graceSeconds`). Thread-safe.
    void stop(double graceSeconds = 10);

    unsigned openConnections();

private:
    void serveConnection(int fd, std::string client);
    Response route(const Request& req, const std::string& client, std::string& logExtra);
    Response health(const Request& req);
    Response compileRoute(const Request& req, const std::string& client, std::string& logExtra);
    Response staticFile(const Request& req, const std::string& decodedPath);
    void logLine(const std::string& client, const std::string& method, const std::string& path, int status, size_t bytes,
                 double ms, const std::string& extra);

    ServerConfig config_;
    CompileService& service_;
    RateLimiter limiter_;
    std::string webRoot_;   // canonical webDir, "" when none
    int listenFd_ = -1;
    int wake_[2] = {-1, -1};   // written once by stop(): every poll() in the server wakes
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::thread acceptThread_;
    std::mutex m_;
    std::condition_variable cv_;
    unsigned open_ = 0;
    std::map<std::string, unsigned> openPerClient_;
    std::mutex logMutex_;
};

} // namespace warpscope::serve
