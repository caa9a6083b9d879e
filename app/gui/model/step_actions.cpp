// Step actions (see step_actions.hpp): a tokenizer per statement, validation against the lesson,
// and the hidden-answer gate.
#include "gui/model/step_actions.hpp"

#include "ptx/parser.hpp"
#include "sim/program.hpp"
#include "timing/gpu_spec.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace warpscope::gui {

namespace {
std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

bool parseUnsigned(const std::string& s, uint64_t& v) {
    if (s.empty() || s.size() > 18) return false;
    v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return true;
}

bool parseNumber(const std::string& s, double& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && std::isfinite(v);
}

std::string lineMsg(int line, const std::string& m) { return "line " + std::to_string(line) + ": " + m; }

std::string joinNames(const std::vector<std::string>& v) {
    std::string s;
    for (auto& n : v) s += (s.empty() ? "" : ", ") + n;
    return s;
}

const char* kVerbs = "param, defaults, restart, select, run-to, steps, show, layout, open, timed";

std::string fmt(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}
} // namespace

const std::vector<std::string>& knownLayouts() {
    static const std::vector<std::string> v = {"stepping", "memory", "compare", "checks", "timing", "streams", "presenter"};
    return v;
}

const std::vector<std::string>& knownPanels() {
    static const std::vector<std::string> v = {"lessons", "source", "divergence", "grid", "warp", "global", "shared",
                                               "heatmap", "metrics", "compare", "reports", "occupancy", "scheduler", "stalls",
                                               "timeline"};
    return v;
}

std::vector<StepAction> parseStepActions(std::string_view text, int mdLine, std::vector<std::string>& errors) {
    std::vector<StepAction> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t semi = text.find(';', start);
        std::string_view stmt = text.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start);
        start = semi == std::string_view::npos ? text.size() + 1 : semi + 1;
        std::vector<std::string> w = words(stmt);
        if (w.empty()) continue;
        StepAction a;
        a.mdLine = mdLine;
        for (auto& x : w) a.text += (a.text.empty() ? "" : " ") + x;
        auto bad = [&](const std::string& m) { errors.push_back(lineMsg(mdLine, "'" + a.text + "': " + m)); };
        const std::string& verb = w[0];
        uint64_t n = 0;
        if (verb == "param") {
            a.kind = StepAction::Kind::Param;
            if (w.size() < 2) {
                bad("expected param NAME=VALUE");
                continue;
            }
            bool ok = true;
            for (size_t k = 1; k < w.size(); ++k) {
                size_t eq = w[k].find('=');
                double v = 0;
                if (eq == std::string::npos || eq == 0 || !parseNumber(w[k].substr(eq + 1), v)) {
                    bad("expected NAME=VALUE with a number, got '" + w[k] + "'");
                    ok = false;
                    break;
                }
                a.params.emplace_back(w[k].substr(0, eq), v);
            }
            if (!ok) continue;
        } else if (verb == "defaults" || verb == "restart") {
            a.kind = verb == "defaults" ? StepAction::Kind::Defaults : StepAction::Kind::Restart;
            if (w.size() != 1) {
                bad("'" + verb + "' takes nothing after it");
                continue;
            }
        } else if (verb == "select") {
            a.kind = StepAction::Kind::Select;
            uint64_t b = 0, wp = 0;
            if (w.size() != 5 || w[1] != "block" || w[3] != "warp" || !parseUnsigned(w[2], b) || !parseUnsigned(w[4], wp) ||
                b > UINT32_MAX || wp > 31) {
                bad("expected select block B warp W (W from 0 to 31)");
                continue;
            }
            a.block = static_cast<uint32_t>(b);
            a.warp = static_cast<uint32_t>(wp);
        } else if (verb == "run-to") {
            if (w.size() == 3 && w[1] == "line" && parseUnsigned(w[2], n) && n > 0 && n < 1000000) {
                a.kind = StepAction::Kind::RunToLine;
                a.line = static_cast<uint32_t>(n);
            } else if (w.size() == 2 && w[1] == "barrier") {
                a.kind = StepAction::Kind::RunToBarrier;
            } else if (w.size() == 2 && w[1] == "end") {
                a.kind = StepAction::Kind::RunToEnd;
            } else {
                bad("expected run-to line L, run-to barrier or run-to end");
                continue;
            }
        } else if (verb == "steps") {
            a.kind = StepAction::Kind::Steps;
            if (w.size() != 2 || !parseUnsigned(w[1], n) || n == 0) {
                bad("expected steps N with N > 0");
                continue;
            }
            a.count = n;
        } else if (verb == "show") {
            a.kind = StepAction::Kind::ShowLine;
            if (w.size() != 3 || w[1] != "line" || !parseUnsigned(w[2], n) || n == 0 || n >= 1000000) {
                bad("expected show line L");
                continue;
            }
            a.line = static_cast<uint32_t>(n);
        } else if (verb == "layout" || verb == "open" || verb == "timed") {
            a.kind = verb == "layout" ? StepAction::Kind::Layout : verb == "open" ? StepAction::Kind::Open : StepAction::Kind::Timed;
            if (w.size() != 2) {
                bad("expected " + verb + (verb == "timed" ? " PRESET (or off)" : verb == "open" ? " PANEL" : " NAME"));
                continue;
            }
            a.name = w[1];
        } else {
            errors.push_back(lineMsg(mdLine, "unknown action '" + verb + "' (known: " + kVerbs + ")"));
            continue;
        }
        out.push_back(std::move(a));
    }
    return out;
}

std::string describeAction(const StepAction& a) {
    switch (a.kind) {
    case StepAction::Kind::Param: {
        std::string s = "set";
        for (size_t k = 0; k < a.params.size(); ++k) s += (k ? ", " : " ") + a.params[k].first + "=" + fmt(a.params[k].second);
        return s;
    }
    case StepAction::Kind::Defaults: return "parameters to their defaults";
    case StepAction::Kind::Restart: return "restart";
    case StepAction::Kind::Select: return "select warp " + std::to_string(a.warp) + " of block " + std::to_string(a.block);
    case StepAction::Kind::RunToLine: return "run to line " + std::to_string(a.line);
    case StepAction::Kind::RunToBarrier: return "run to the next barrier";
    case StepAction::Kind::RunToEnd: return "run to the end of the launch";
    case StepAction::Kind::Steps: return "step " + std::to_string(a.count) + " times";
    case StepAction::Kind::ShowLine: return "show line " + std::to_string(a.line);
    case StepAction::Kind::Layout: return a.name + " layout";
    case StepAction::Kind::Open: return "open the " + a.name + " panel";
    case StepAction::Kind::Timed: return a.name == "off" ? "Timed mode off" : "Timed mode on " + a.name;
    }
    return a.text;
}

ActionContext actionContextFor(const runtime::Lesson& lesson) {
    ActionContext ctx;
    ctx.lesson = &lesson;
    if (!lesson.sourcePath.empty()) {
        std::ifstream f(lesson.sourcePath);
        std::string l;
        while (std::getline(f, l)) ++ctx.sourceLineCount;
    }
    try {
        ptx::Module m = ptx::parse(lesson.ptxText, lesson.ptxPath.filename().string());
        sim::SymbolAddresses symbols;
        uint64_t addr = 0x10000;
        for (auto& v : m.variables) symbols[v.name] = addr += 0x10000;
        for (const ptx::Function* k : m.kernels()) {
            sim::Program p = sim::compile(m, k->name, symbols);
            for (auto& in : p.code)
                if (in.line) ctx.codeLines.insert(in.line);
        }
    } catch (const std::exception&) {
        // A PTX the engine cannot compile is reported when the lesson runs; lines stay unknown.
    }
    for (auto& p : timing::builtinPresets()) ctx.presets.insert(p.name);
    return ctx;
}

std::vector<std::string> validateStepActions(const std::vector<StepAction>& actions, const ActionContext& ctx) {
    std::vector<std::string> errors;
    for (const StepAction& a : actions) {
        auto bad = [&](const std::string& m) { errors.push_back(lineMsg(a.mdLine, "'" + a.text + "': " + m)); };
        switch (a.kind) {
        case StepAction::Kind::Param:
            for (auto& [name, v] : a.params) {
                const runtime::ParamSpec* spec = nullptr;
                if (ctx.lesson)
                    for (auto& p : ctx.lesson->params)
                        if (p.name == name) spec = &p;
                if (!spec) {
                    std::vector<std::string> names;
                    if (ctx.lesson)
                        for (auto& p : ctx.lesson->params) names.push_back(p.name);
                    bad("unknown parameter '" + name + "'" + (names.empty() ? " (the lesson has none)" : " (the lesson has " + joinNames(names) + ")"));
                    continue;
                }
                if (!spec->isFloat && v != std::floor(v)) bad(name + " takes whole numbers, got " + fmt(v));
                if (!spec->choices.empty() && std::find(spec->choices.begin(), spec->choices.end(), v) == spec->choices.end()) {
                    std::vector<std::string> cs;
                    for (double c : spec->choices) cs.push_back(fmt(c));
                    bad(name + "=" + fmt(v) + " is not one of the allowed choices (" + joinNames(cs) + ")");
                }
                if ((spec->min && v < *spec->min) || (spec->max && v > *spec->max))
                    bad(name + "=" + fmt(v) + " is outside " + (spec->min ? fmt(*spec->min) : "-inf") + ".." + (spec->max ? fmt(*spec->max) : "inf"));
            }
            break;
        case StepAction::Kind::RunToLine:
        case StepAction::Kind::ShowLine:
            if (ctx.sourceLineCount == 0) bad("the lesson has no kernel source to point at");
            else if (a.line > ctx.sourceLineCount)
                bad("line " + std::to_string(a.line) + " is out of range (kernel.cu has " + std::to_string(ctx.sourceLineCount) + " lines)");
            else if (a.kind == StepAction::Kind::RunToLine && !ctx.codeLines.empty() && !ctx.codeLines.count(a.line))
                bad("no instruction comes from line " + std::to_string(a.line) + " of kernel.cu, so no warp can stop there");
            break;
        case StepAction::Kind::Layout:
            if (std::find(knownLayouts().begin(), knownLayouts().end(), a.name) == knownLayouts().end())
                bad("unknown layout '" + a.name + "' (known: " + joinNames(knownLayouts()) + ")");
            break;
        case StepAction::Kind::Open:
            if (std::find(knownPanels().begin(), knownPanels().end(), a.name) == knownPanels().end())
                bad("unknown panel '" + a.name + "' (known: " + joinNames(knownPanels()) + ")");
            break;
        case StepAction::Kind::Timed:
            if (a.name != "off" && !ctx.presets.empty() && !ctx.presets.count(a.name)) {
                std::vector<std::string> names(ctx.presets.begin(), ctx.presets.end());
                bad("unknown GPU preset '" + a.name + "' (known: " + joinNames(names) + ", or off)");
            }
            break;
        default: break;
        }
    }
    return errors;
}

StepsCheck checkSteps(const MdDocument& doc, const ActionContext& ctx, const std::string& file) {
    StepsCheck out;
    auto add = [&](const std::vector<std::string>& errs) {
        for (auto& e : errs) out.errors.push_back(file + ":" + e.substr(5));   // "line N: m" -> "file:N: m"
    };
    for (auto& al : doc.introActions) add({lineMsg(al.line, "a 'do:' comment before the first step (## heading) belongs to no step")});
    for (const MdSection& sec : doc.sections) {
        std::vector<StepAction> acts;
        for (const MdActionLine& al : sec.actions) {
            std::vector<std::string> errs;
            auto parsed = parseStepActions(al.text, al.line, errs);
            if (parsed.empty() && errs.empty()) errs.push_back(lineMsg(al.line, "an empty 'do:' comment"));
            add(errs);
            acts.insert(acts.end(), parsed.begin(), parsed.end());
        }
        add(validateStepActions(acts, ctx));
        out.actions.push_back(std::move(acts));
    }
    return out;
}

bool updateAnswerGate(AnswerGate& g, const RunProgress& now, bool sessionIdle) {
    if (g.revealed) return true;
    if (g.actionsPending) {
        if (sessionIdle) g.revealed = true;
        return g.revealed;
    }
    if (!g.baselineSet) {
        if (sessionIdle) {
            g.baseline = now;
            g.baselineSet = true;
        }
        return false;
    }
    bool restarted = now.generation != g.baseline.generation;
    bool moved = restarted ? now.steps > 0 : now.steps > g.baseline.steps;
    bool finished = now.finished && (restarted || !g.baseline.finished);
    if (moved || finished) g.revealed = true;
    return g.revealed;
}

} // namespace warpscope::gui
