// warpscope serve's HTTP layer on its own: request heads, limits, URL decoding, content types, the
// per-client token bucket (app/cli/serve/http.hpp, compile_service.hpp).
#include <catch2/catch.hpp>

#include "serve/compile_service.hpp"
#include "serve/http.hpp"

using namespace warpscope::serve;

TEST_CASE("a request head is parsed once its blank line arrives", "[serve]") {
    Request req;
    const std::string head = "POST /api/compile?token=a%20b&x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\nX-A: 1\r\nx-a: 2\r\n\r\n{\"source\":1}";
    CHECK(parseHead(head.substr(0, 40), req).state == HeadParse::State::NeedMore);
    const HeadParse h = parseHead(head, req);
    REQUIRE(h.state == HeadParse::State::Done);
    CHECK(h.headBytes == head.size() - 12);
    CHECK(h.contentLength == 12);
    CHECK(req.method == "POST");
    CHECK(req.path == "/api/compile");
    CHECK(queryValue(req.query, "token") == "a b");
    CHECK(queryValue(req.query, "y").empty());
    CHECK(*req.header("x-a") == "1, 2");
    CHECK(req.keepAlive());
    REQUIRE(parseHead("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", req).state == HeadParse::State::Done);
    CHECK_FALSE(req.keepAlive());
    REQUIRE(parseHead("GET / HTTP/1.0\r\n\r\n", req).state == HeadParse::State::Done);
    CHECK_FALSE(req.keepAlive());
    REQUIRE(parseHead("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", req).expectContinue);
}

TEST_CASE("malformed and oversized heads get 400 and 413", "[serve]") {
    Request req;
    auto status = [&](const std::string& text) {
        HeadParse h = parseHead(text, req);
        return h.state == HeadParse::State::Error ? h.status : 0;
    };
    CHECK(status("GARBAGE\r\n\r\n") == 400);
    CHECK(status("GET /a b HTTP/1.1\r\n\r\n") == 400);
    CHECK(status("GET / HTTP/2\r\n\r\n") == 400);
    CHECK(status("GET nopath HTTP/1.1\r\n\r\n") == 400);
    CHECK(status("GET / HTTP/1.1\r\nNo colon here\r\n\r\n") == 400);
    CHECK(status("POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n") == 400);
    CHECK(status("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == 400);
    CHECK(status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 400);
    CHECK(status("POST / HTTP/1.1\r\nContent-Length: " + std::to_string(kMaxBodyBytes + 1) + "\r\n\r\n") == 413);
    CHECK(status("POST / HTTP/1.1\r\nContent-Length: " + std::to_string(kMaxBodyBytes) + "\r\n\r\n") == 0);
    // Headers past 16 KiB: refused before the blank line arrives, and after it.
    const std::string big = "GET / HTTP/1.1\r\nX-Big: " + std::string(kMaxHeaderBytes, 'a');
    CHECK(status(big) == 413);
    CHECK(status(big + "\r\n\r\n") == 413);
}

TEST_CASE("URL paths decode, and encoded separators and NULs are refused", "[serve]") {
    CHECK(percentDecodePath("/%2e%2e/x").value() == "/../x");
    CHECK(percentDecodePath("/a%20b.js").value() == "/a b.js");
    CHECK_FALSE(percentDecodePath("/a%2fb"));
    CHECK_FALSE(percentDecodePath("/a%5cb"));
    CHECK_FALSE(percentDecodePath("/a%00"));
    CHECK_FALSE(percentDecodePath("/a%4"));
    CHECK_FALSE(percentDecodePath("/a%zz"));
}

TEST_CASE("content types of the web build's files", "[serve]") {
    CHECK(contentTypeFor("index.html") == "text/html; charset=utf-8");
    CHECK(contentTypeFor("warpscope-gui.js") == "text/javascript; charset=utf-8");
    CHECK(contentTypeFor("warpscope-gui.wasm") == "application/wasm");
    CHECK(contentTypeFor("warpscope-gui.data") == "application/octet-stream");
    CHECK(contentTypeFor("style.CSS") == "text/css; charset=utf-8");
    CHECK(contentTypeFor("shot.png") == "image/png");
    CHECK(contentTypeFor("lesson.json") == "application/json");
    CHECK(contentTypeFor("noext") == "application/octet-stream");
}

TEST_CASE("responses carry the cross-origin isolation headers", "[serve]") {
    const std::string h = responseHead(404, "application/json", 7, {{"Allow", "GET"}}, false);
    CHECK(h.rfind("HTTP/1.1 404 Not Found\r\n", 0) == 0);
    CHECK(h.find("Cross-Origin-Opener-Policy: same-origin\r\n") != std::string::npos);
    CHECK(h.find("Cross-Origin-Embedder-Policy: require-corp\r\n") != std::string::npos);
    CHECK(h.find("Content-Length: 7\r\n") != std::string::npos);
    CHECK(h.find("Allow: GET\r\n") != std::string::npos);
    CHECK(h.find("Connection: close\r\n\r\n") != std::string::npos);
    CHECK(errorJson("a \"quoted\" word") == R"({"error":"a \"quoted\" word"})");
}

TEST_CASE("the token bucket allows a minute's burst per client, then refuses with a wait", "[serve]") {
    RateLimiter r(3);
    double retry = 0;
    CHECK(r.take("a"));
    CHECK(r.take("a"));
    CHECK(r.take("a"));
    CHECK_FALSE(r.take("a", &retry));
    CHECK(retry > 0);
    CHECK(retry <= 20.0);   // one token comes back every 20 s at 3 a minute
    CHECK(r.take("b"));     // another client has its own bucket
    RateLimiter off(0);
    for (int i = 0; i < 100; ++i) CHECK(off.take("a"));
}

TEST_CASE("compile results travel as the API's JSON and back", "[serve]") {
    warpscope::compile::Result r;
    r.ok = false;
    r.used = warpscope::compile::Compiler::Clang;
    r.diagnostics.push_back({"kernel.cu", 12, 5, warpscope::compile::Diagnostic::Severity::Error, "use of undeclared identifier 'q'"});
    r.diagnostics.push_back({"kernel.cu", 3, 1, warpscope::compile::Diagnostic::Severity::Note, "declared here"});
    const nlohmann::json j = resultJson(r);
    CHECK(j["compiler"] == "clang");
    CHECK(j["diagnostics"][0]["line"] == 12);
    CHECK(j["diagnostics"][0]["column"] == 5);
    CHECK(j["diagnostics"][0]["severity"] == "error");
    CHECK(j["diagnostics"][1]["severity"] == "note");
    const auto back = resultFromJson(j);
    CHECK(back.used == warpscope::compile::Compiler::Clang);
    REQUIRE(back.diagnostics.size() == 2);
    CHECK(back.diagnostics[0].text() == r.diagnostics[0].text());
    CHECK(back.diagnostics[1].severity == warpscope::compile::Diagnostic::Severity::Note);
}
