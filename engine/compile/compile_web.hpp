// The compile layer in the browser (web build only; docs/web.md): the page cannot run a
// compiler, so compile::compile sends the source to the server that served the page
// (`warpscope serve`: POST api/compile) and turns its answer into the same Result the desktop's
// compilers give (PTX, diagnostics at their lines, or an error sentence).
#pragma once
#include "compile/compile.hpp"

#include <string>
#include <vector>

namespace warpscope::compile {

// What the page learned at start-up (GET api/health): whether a server answered, its version
// and compilers, and the token from the page's ?token= (sent as a Bearer token). Thread-safe.
void setWebServer(bool present, const std::string& version, const std::vector<std::string>& compilers, const std::string& token);
bool webServerPresent();
// The server's compilers, as available() lists them ("warpscope serve at this page's address").
std::vector<CompilerInfo> webCompilers();
// One compile through the server; blocks the calling thread (a model's background runner, a
// Web Worker, never the page's main thread when called from the models) until it answers.
Result webCompile(const std::string& source, const std::string& fileName, const Options& options);
// The sentence the editor shows when the page has no server.
const char* noServerMessage();

} // namespace warpscope::compile
