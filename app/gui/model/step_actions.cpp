// Step actions (see step_actions.hpp): a tokenizer per statement, validation against the lesson,
// and the hidden-answer gate.
#include "gui/model/step_actions.hpp"

#include "gui/model/grid_layout.hpp"
#include "gui/model/memory_model.hpp"
#include "gui/model/session.hpp"

#include "ptx/parser.hpp"
#include "sim/program.hpp"
#include "timing/gpu_spec.hpp"

#include <algorithm>
#include <bit>
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

// The non-empty ';'-separated statements of a comment body, each as its words.
std::vector<std::vector<std::string>> statements(std::string_view text) {
    std::vector<std::vector<std::string>> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t semi = text.find(';', start);
        std::string_view stmt = text.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start);
        start = semi == std::string_view::npos ? text.size() + 1 : semi + 1;
        std::vector<std::string> w = words(stmt);
        if (!w.empty()) out.push_back(std::move(w));
    }
    return out;
}

std::string joinWords(const std::vector<std::string>& w) {
    std::string t;
    for (auto& x : w) t += (t.empty() ? "" : " ") + x;
    return t;
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

const char* kVerbs = "param, defaults, restart, select, run-to, steps, show, layout, open, timed, pin, check";

std::string fmt(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}
} // namespace

const std::vector<std::string>& knownLayouts() {
    static const std::vector<std::string> v = {"stepping", "memory", "compare", "checks", "timing", "streams", "tensor", "async", "presenter"};
    return v;
}

const std::vector<std::string>& knownPanels() {
    static const std::vector<std::string> v = {"lessons", "source", "divergence", "grid", "warp", "global", "shared",
                                               "heatmap", "metrics", "compare", "reports", "occupancy", "scheduler", "stalls",
                                               "timeline", "fragments", "async"};
    return v;
}

std::vector<StepAction> parseStepActions(std::string_view text, int mdLine, std::vector<std::string>& errors) {
    std::vector<StepAction> out;
    for (const std::vector<std::string>& w : statements(text)) {
        StepAction a{.mdLine = mdLine, .text = joinWords(w)};
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
        } else if (verb == "check") {
            a.kind = StepAction::Kind::Check;
            bool ok = w.size() >= 2;
            for (size_t k = 1; ok && k < w.size(); ++k) {
                if (w[k] == "racecheck") a.racecheck = true;
                else if (w[k] == "initcheck") a.initcheck = true;
                else ok = w[k] == "off" && w.size() == 2;
            }
            if (!ok) {
                bad("expected check racecheck|initcheck (one or both), or check off");
                continue;
            }
        } else if (verb == "pin") {
            a.kind = StepAction::Kind::Pin;
            bool ok = (w.size() == 4 || w.size() == 5) && (w[1] == "global" || w[1] == "shared") && w[2] == "line" &&
                      parseUnsigned(w[3], n) && n > 0 && n < 1000000;
            if (ok && w.size() == 5) {
                ok = w[4] == "load" || w[4] == "store";
                a.access = w[4] == "load" ? 1 : 2;
            }
            if (!ok) {
                bad("expected pin global|shared line L [load|store]");
                continue;
            }
            a.name = w[1];
            a.line = static_cast<uint32_t>(n);
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
    case StepAction::Kind::Check:
        if (!a.racecheck && !a.initcheck) return "checkers off";
        return std::string(a.racecheck && a.initcheck ? "racecheck and initcheck" : a.racecheck ? "racecheck" : "initcheck") + " on";
    case StepAction::Kind::Pin:
        return "show the " + std::string(a.access == 1 ? "load" : a.access == 2 ? "store" : "access") + " on line " + std::to_string(a.line) +
               " in " + (a.name == "global" ? "Global access" : "Shared banks");
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
            for (auto& in : p.code) {
                if (!in.line) continue;
                ctx.codeLines.insert(in.line);
                if (in.op == sim::Op::Ld || in.op == sim::Op::St || in.op == sim::Op::Atom || in.op == sim::Op::Red) {
                    bool generic = in.space != ptx::StateSpace::Global && in.space != ptx::StateSpace::Shared;
                    if (generic || in.space == ptx::StateSpace::Global) ctx.memLines.insert({in.line, false});
                    if (generic || in.space == ptx::StateSpace::Shared) ctx.memLines.insert({in.line, true});
                }
            }
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
        case StepAction::Kind::Pin:
            if (ctx.sourceLineCount == 0) bad("the lesson has no kernel source to point at");
            else if (a.line > ctx.sourceLineCount)
                bad("line " + std::to_string(a.line) + " is out of range (kernel.cu has " + std::to_string(ctx.sourceLineCount) + " lines)");
            else if (a.kind == StepAction::Kind::RunToLine && !ctx.codeLines.empty() && !ctx.codeLines.count(a.line))
                bad("no instruction comes from line " + std::to_string(a.line) + " of kernel.cu, so no warp can stop there");
            else if (a.kind == StepAction::Kind::Pin && !ctx.memLines.empty() && !ctx.memLines.count({a.line, a.name == "shared"}))
                bad("no " + a.name + " memory instruction comes from line " + std::to_string(a.line) + " of kernel.cu");
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
        std::vector<StepExpect> exps;
        for (const MdActionLine& el : sec.expects) {
            std::vector<std::string> errs;
            auto parsed = parseStepExpects(el.text, el.line, errs);
            add(errs);
            exps.insert(exps.end(), parsed.begin(), parsed.end());
        }
        out.expects.push_back(std::move(exps));
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

PageTurn turnPage(const std::vector<PagerStep>& steps, int current, int delta, bool nextDoesIt) {
    int n = static_cast<int>(steps.size());
    PageTurn t;
    t.to = n == 0 ? 0 : std::clamp(current, 0, n - 1);
    if (n == 0 || delta == 0) return t;
    const PagerStep& here = steps[static_cast<size_t>(t.to)];
    if (delta > 0 && nextDoesIt && here.asksPrediction && !here.revealed && !here.actionsPending && here.hasActions) {
        t.doHere = true;
        return t;
    }
    int to = std::clamp(t.to + delta, 0, n - 1);
    if (to == t.to) return t;
    t.to = to;
    const PagerStep& next = steps[static_cast<size_t>(to)];
    bool waits = delta > 0 && next.asksPrediction && !next.revealed;
    t.doTo = nextDoesIt && !waits && next.hasActions;
    return t;
}

// ---------------------------------------------------------------- pins, applying, expectations
const MemAccess* pinnedAccess(const std::vector<MemAccess>& history, bool shared, const MemPin& pin) {
    for (auto it = history.rbegin(); it != history.rend(); ++it)
        if (it->shared == shared && it->line == pin.line &&
            (pin.access == 0 || (pin.access == 1 ? it->isLoad : it->isStore || it->isAtomic)))
            return &*it;
    return nullptr;
}

void applyStepActions(const std::vector<StepAction>& actions, StepActionTarget& t) {
    t.pin(false, {});
    t.pin(true, {});
    bool restarted = false;
    std::vector<std::pair<std::string, double>> params;
    bool defaults = false, paramsPending = false;
    auto flush = [&] {
        if (paramsPending) restarted = t.setParams(params, defaults) || restarted;
        params.clear();
        defaults = paramsPending = false;
    };
    // Moving from wherever the student is could miss a target behind them: start from a fresh run.
    auto beforeMove = [&] {
        flush();
        if (!restarted) t.restart();
        restarted = true;
    };
    for (const StepAction& a : actions) {
        switch (a.kind) {
        case StepAction::Kind::Param:
            params.insert(params.end(), a.params.begin(), a.params.end());
            paramsPending = true;
            break;
        case StepAction::Kind::Defaults:
            params.clear();
            defaults = paramsPending = true;
            break;
        case StepAction::Kind::Restart:
            flush();
            t.restart();
            restarted = true;
            break;
        case StepAction::Kind::Timed:
            flush();
            restarted = t.setTimed(a.name) || restarted;
            break;
        case StepAction::Kind::Check:
            flush();
            restarted = t.setCheckers(a.initcheck, a.racecheck) || restarted;
            break;
        case StepAction::Kind::Select:
            flush();
            t.select(a.block, a.warp);
            break;
        case StepAction::Kind::RunToLine: beforeMove(); t.runToLine(a.line); break;
        case StepAction::Kind::RunToBarrier: beforeMove(); t.runToBarrier(); break;
        case StepAction::Kind::RunToEnd: beforeMove(); t.runToEnd(); break;
        case StepAction::Kind::Steps: beforeMove(); t.runSteps(a.count); break;
        case StepAction::Kind::Pin: t.pin(a.name == "shared", MemPin{a.line, a.access}); break;
        case StepAction::Kind::ShowLine:
        case StepAction::Kind::Layout:
        case StepAction::Kind::Open: t.ui(a); break;
        }
    }
    flush();
}

SessionActionTarget::SessionActionTarget(Session& s, const runtime::Lesson& l) : session(s), lesson(l) {
    for (auto& p : l.params) params[p.name] = p.defaultValue;
}
bool SessionActionTarget::setParams(const std::vector<std::pair<std::string, double>>& values, bool defaultsFirst) {
    if (defaultsFirst)
        for (auto& p : lesson.params) params[p.name] = p.defaultValue;
    for (auto& [k, v] : values) params[k] = v;
    session.setParams(params);
    return true;
}
bool SessionActionTarget::setTimed(const std::string& preset) {
    std::string want = preset == "off" ? "" : preset;
    if (want == timedPreset) return false;
    timedPreset = want;
    TimingConfig cfg;
    cfg.timed = !want.empty();
    for (auto& p : timing::builtinPresets())
        if (p.name == (want.empty() ? std::string(timing::kDefaultPreset) : want)) cfg.spec = p;
    session.setTiming(cfg);
    return true;
}
bool SessionActionTarget::setCheckers(bool init, bool race) {
    if (init == initcheck && race == racecheck) return false;
    initcheck = init;
    racecheck = race;
    session.setCheckers(init, race);
    return true;
}
void SessionActionTarget::restart() { session.restart(); }
void SessionActionTarget::select(uint32_t block, uint32_t warp) { session.select(block, warp, false); }
void SessionActionTarget::runToLine(uint32_t line) { session.runToLine(line); }
void SessionActionTarget::runToBarrier() { session.runToBarrier(); }
void SessionActionTarget::runToEnd() { session.runToEnd(); }
void SessionActionTarget::runSteps(uint64_t n) { session.runSteps(n); }
void SessionActionTarget::pin(bool shared, const MemPin& p) { (shared ? sharedPin : globalPin) = p; }

std::vector<std::string> landingProblems(const std::vector<StepAction>& actions, const Snapshot& s) {
    std::vector<std::string> out;
    if (s.state == RunState::Failed || s.state == RunState::Faulted) {
        out.push_back(s.statusText);
        return out;
    }
    const StepAction* move = nullptr;
    const StepAction* sel = nullptr;
    for (auto& a : actions) {
        if (a.kind == StepAction::Kind::Select) sel = &a;
        if (a.kind == StepAction::Kind::RunToLine || a.kind == StepAction::Kind::RunToBarrier || a.kind == StepAction::Kind::RunToEnd ||
            a.kind == StepAction::Kind::Steps)
            move = &a;
    }
    if (sel && s.program) {
        if (sel->block >= s.blockCount)
            out.push_back("'" + sel->text + "': the grid has only " + std::to_string(s.blockCount) + (s.blockCount == 1 ? " block." : " blocks."));
        else if (sel->warp >= s.warpsPerBlock)
            out.push_back("'" + sel->text + "': a block has only " + std::to_string(s.warpsPerBlock) + (s.warpsPerBlock == 1 ? " warp." : " warps."));
    }
    if (move && move->kind == StepAction::Kind::RunToLine) {
        bool on = s.selected && s.selected->warp.line == move->line && !s.selected->warp.masks.done;
        if (!on)
            out.push_back("'" + move->text + "': the selected warp " +
                          (s.state == RunState::Finished ? std::string("never got there before the program ended.")
                                                         : "stopped on line " + std::to_string(s.selected ? s.selected->warp.line : 0) + "."));
    }
    return out;
}

std::vector<StepExpect> parseStepExpects(std::string_view text, int mdLine, std::vector<std::string>& errors) {
    std::vector<StepExpect> out;
    for (const std::vector<std::string>& w : statements(text)) {
        StepExpect e{.mdLine = mdLine, .text = joinWords(w)};
        uint64_t n = 0;
        if (w.size() == 1 && (w[0] == "finished" || w[0] == "ended")) {
            e.kind = w[0] == "finished" ? StepExpect::Kind::Finished : StepExpect::Kind::Ended;
        } else if (w.size() == 2 && parseUnsigned(w[1], n) &&
                   (w[0] == "line" || w[0] == "active" || w[0] == "sectors" || w[0] == "ways" || w[0] == "launch" || w[0] == "waiting" ||
                    w[0] == "reports" || w[0] == "tiles")) {
            e.kind = w[0] == "line" ? StepExpect::Kind::Line : w[0] == "active" ? StepExpect::Kind::Active
                   : w[0] == "sectors" ? StepExpect::Kind::Sectors : w[0] == "ways" ? StepExpect::Kind::Ways
                   : w[0] == "launch" ? StepExpect::Kind::Launch : w[0] == "reports" ? StepExpect::Kind::Reports
                   : w[0] == "tiles" ? StepExpect::Kind::Tiles : StepExpect::Kind::Waiting;
            e.value = n;
        } else {
            errors.push_back(lineMsg(mdLine, "'" + e.text + "': expected line L, active N, sectors N, ways N, launch N, waiting N, reports N, tiles N, ended or finished"));
            continue;
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<std::string> unmetExpectations(const std::vector<StepExpect>& expects, const Snapshot& s, const MemPin& globalPin,
                                           const MemPin& sharedPin) {
    std::vector<std::string> out;
    auto shownAccess = [&](bool shared) -> const MemAccess* {
        const MemPin& p = shared ? sharedPin : globalPin;
        return p.line ? pinnedAccess(s.memHistory, shared, p) : pickAccess(s.memHistory, shared, 0);
    };
    for (const StepExpect& e : expects) {
        std::string got;
        switch (e.kind) {
        case StepExpect::Kind::Line:
            if (!s.selected) got = "no selected warp";
            else if (s.selected->warp.line != e.value) got = "the selected warp is on line " + std::to_string(s.selected->warp.line);
            break;
        case StepExpect::Kind::Active: {
            uint32_t n = s.selected ? static_cast<uint32_t>(std::popcount(s.selected->warp.masks.active)) : 0;
            if (!s.selected) got = "no selected warp";
            else if (n != e.value) got = std::to_string(n) + " lanes are active";
            break;
        }
        case StepExpect::Kind::Sectors: {
            const MemAccess* a = shownAccess(false);
            uint32_t n = a ? buildGlobalDiagram(*a).sectorCount : 0;
            if (!a) got = "Global access shows nothing";
            else if (n != e.value) got = "Global access shows " + std::to_string(n) + " sectors (line " + std::to_string(a->line) + ")";
            break;
        }
        case StepExpect::Kind::Ways: {
            const MemAccess* a = shownAccess(true);
            uint32_t n = 0;
            if (a)
                for (auto& ph : buildSharedDiagram(*a).phases) n = std::max(n, ph.ways);
            if (!a) got = "Shared banks shows nothing";
            else if (n != e.value) got = "Shared banks shows " + std::to_string(n) + "-way (line " + std::to_string(a->line) + ")";
            break;
        }
        case StepExpect::Kind::Finished:
            if (s.state != RunState::Finished) got = std::string("the run is ") + runStateName(s.state);
            break;
        case StepExpect::Kind::Launch:
            if (s.launchIndex + 1 != static_cast<int64_t>(e.value)) got = "launch " + std::to_string(s.launchIndex + 1) + " is shown";
            break;
        case StepExpect::Kind::Reports:
            if (s.reports.size() != e.value) got = std::to_string(s.reports.size()) + " checker reports (Checks panel)";
            break;
        case StepExpect::Kind::Ended:
            if (s.state != RunState::LaunchDone && s.state != RunState::Finished) got = std::string("the run is ") + runStateName(s.state);
            break;
        case StepExpect::Kind::Tiles: {   // Grid & warps' tiles of the selected warp (grid_layout.hpp laneGroups)
            if (!s.selected || s.selected->syncPc < 0) {
                got = "the selected warp has run no warp-synchronous instruction (no tiles shown)";
                break;
            }
            const size_t n = laneGroups(s.selected->syncMask, s.selected->syncExec).size();
            if (n != e.value) got = "Grid & warps shows " + std::to_string(n) + " tiles";
            break;
        }
        case StepExpect::Kind::Waiting: {
            uint32_t n = 0;
            if (const BlockView* b = s.residentBlock(s.selBlock))
                for (auto& w : b->warps) n += w.masks.atBarrier ? 1 : 0;
            if (n != e.value) got = std::to_string(n) + " warps of block " + std::to_string(s.selBlock) + " wait at a barrier";
            break;
        }
        }
        if (!got.empty()) out.push_back(lineMsg(e.mdLine, "'" + e.text + "': " + got));
    }
    return out;
}

} // namespace warpscope::gui
