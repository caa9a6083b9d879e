// HTTP/1.1 for `warpscope serve`: the request head parser, the response writer and the small
// helpers the routes need (percent-decoding, content types). No sockets and no routes here, so a
// test feeds it bytes directly (tests/app/cli/serve/http_test.cpp). docs/serve.md has the limits.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::serve {

constexpr size_t kMaxHeaderBytes = 16 * 1024;    // request line and headers together
constexpr size_t kMaxBodyBytes = 256 * 1024;     // a compile request's JSON

struct Request {
    std::string method;                          // "GET", "POST", ...
    std::string target;                          // as sent: "/api/compile?x=1"
    std::string path;                            // the target before '?', still percent-encoded
    std::string query;                           // after '?', "" when none
    int minorVersion = 1;                        // HTTP/1.<minor>
    std::map<std::string, std::string> headers;  // names in lower case; repeated names joined with ", "
    std::string body;

    const std::string* header(const std::string& lowerName) const;
    bool keepAlive() const;                      // HTTP/1.1 unless "Connection: close"; 1.0 only with keep-alive
};

// The outcome of parsing a request head (everything up to and including the blank line).
struct HeadParse {
    enum class State { NeedMore, Done, Error } state = State::NeedMore;
    size_t headBytes = 0;        // Done: bytes the head took in the buffer
    size_t contentLength = 0;    // Done: the body's length (0 when none)
    bool expectContinue = false; // Done: the client waits for "100 Continue" before the body
    int status = 0;              // Error: the HTTP status to answer (400, 413, ...)
    std::string message;         // Error: a sentence for the client
};

// Parses the head at the start of `buffer` into `req` (method, target, path, query, headers).
// NeedMore while no blank line has arrived and the head is under kMaxHeaderBytes; Error with 413
// past that, 400 for a malformed line, 413 for a Content-Length over kMaxBodyBytes, 400 for a
// chunked or otherwise encoded body (only Content-Length bodies are taken).
HeadParse parseHead(std::string_view buffer, Request& req);

struct Response {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;   // extra headers (Allow, Retry-After, ...)
    std::string filePath;       // when set, the body is this file's contents (streamed), `body` unused
    size_t fileSize = 0;
};

const char* reasonPhrase(int status);   // "OK", "Not Found", ... ("Unknown" for others)

// The status line and headers (with Content-Length, the isolation headers and Connection), ending
// in the blank line; the body is sent separately (a HEAD answer sends none).
std::string responseHead(int status, const std::string& contentType, size_t contentLength,
                         const std::vector<std::pair<std::string, std::string>>& extra, bool keepAlive);

// {"error":"<sentence>"} with the sentence escaped for JSON.
std::string errorJson(const std::string& sentence);

// Percent-decoding of a URL path; nullopt for a bad escape or an encoded NUL or '/' (a '/' hidden
// in a segment is never a separator, so "%2f" is refused rather than guessed at).
std::optional<std::string> percentDecodePath(std::string_view path);
// The value of `name` in a query string ("a=1&token=x"), percent-decoded ('+' is a space); "" if absent.
std::string queryValue(std::string_view query, std::string_view name);

// The Content-Type for a file name by its extension (.html, .js, .wasm, .data, .css, .png, .json,
// ...); "application/octet-stream" for the rest.
std::string contentTypeFor(std::string_view fileName);

} // namespace warpscope::serve
