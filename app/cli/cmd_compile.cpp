// `warpscope compile kernel.cu [-o kernel.ptx] [--compiler auto|nvrtc|nvcc|clang] [--arch compute_75]
//  [--timeout S] [--list]`: CUDA C++ to PTX through engine/compile. Diagnostics go to stderr as
// file:line:col: error: message. Exit 0 built, 2 compile error or bad usage.
#include "compile/compile.hpp"
#include "base/files.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace warpscope;

int runCompile(int argc, char** argv) {
    std::string input, output;
    compile::Options options;
    bool list = false;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* what) -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs " + what);
            return argv[++i];
        };
        try {
            if (a == "-o") output = value("an output file");
            else if (a == "--compiler") {
                std::string v = value("auto, nvrtc, nvcc or clang");
                auto c = compile::parseCompiler(v);
                if (!c) throw std::invalid_argument("--compiler is auto, nvrtc, nvcc or clang, not '" + v + "'");
                options.compiler = *c;
            } else if (a == "--arch") options.arch = value("an architecture such as compute_75");
            else if (a == "--timeout") options.timeoutSeconds = std::stod(value("seconds"));
            else if (a == "--list") list = true;
            else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a);
            else if (input.empty()) input = a;
            else throw std::invalid_argument("one input file only (got '" + input + "' and '" + a + "')");
        } catch (const std::invalid_argument& e) {
            std::cerr << "warpscope compile: " << e.what() << "\n";
            return 2;
        }
    }
    if (list) {
        auto found = compile::available();
        if (found.empty()) std::cout << "no CUDA compiler found (install clang, or a CUDA toolkit)\n";
        for (auto& c : found) std::cout << compile::compilerName(c.compiler) << "\t" << c.path << "\n";
        if (input.empty()) return 0;
    }
    if (input.empty()) {
        std::cerr << "usage: warpscope compile <kernel.cu> [-o kernel.ptx] [--compiler auto|nvrtc|nvcc|clang] [--arch compute_75]\n";
        return 2;
    }
    const std::optional<std::string> source = base::readFile(input);
    if (!source) {
        std::cerr << "warpscope compile: cannot read " << input << "\n";
        return 2;
    }
    compile::Result r = compile::compile(*source, input, options);
    for (auto& d : r.diagnostics) std::cerr << d.text() << "\n";
    if (!r.error.empty()) std::cerr << input << ": error: " << r.error << "\n";
    if (!r.ok || r.hasErrors()) {
        if (r.diagnostics.empty() && r.error.empty()) std::cerr << r.log;
        return 2;
    }
    if (output.empty()) output = fs::path(input).replace_extension(".ptx").string();
    // Temp file + rename, so a failed write never leaves half a PTX file behind.
    const std::string tmp = output + ".tmp";
    {
        std::ofstream o(tmp, std::ios::binary);
        o << r.ptx;
        if (!o) {
            std::cerr << "warpscope compile: cannot write " << output << "\n";
            return 2;
        }
    }
    std::error_code ec;
    fs::rename(tmp, output, ec);
    if (ec) {
        std::cerr << "warpscope compile: cannot write " << output << ": " << ec.message() << "\n";
        fs::remove(tmp, ec);
        return 2;
    }
    std::cout << "compiled " << input << " with " << compile::compilerName(r.used) << " -> " << output << "\n";
    return 0;
}
