// Grading a class: submissions, grades as JSON, the CSV and HTML tables (class_report.hpp).
//
// Sections: 1. submissions  2. JSON  3. rows and columns  4. CSV  5. HTML
#include "grade/class_report.hpp"
#include "base/error.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace warpscope::grade {

// ---------------------------------------------------------------- 1. submissions
std::vector<Submission> findSubmissions(const fs::path& dir, const Exercise& ex) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw Error(Error::Kind::Input, "'" + dir.string() + "' is not a folder of submissions.");
    const std::string ext = ex.hostProgram ? ".json" : ".cu";
    const std::string preferred = ex.starter.filename().string();
    std::vector<Submission> out;
    for (auto& e : fs::directory_iterator(dir, ec)) {
        std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        if (e.is_directory()) {
            Submission s;
            s.student = name;
            std::vector<fs::path> files;
            for (auto& f : fs::directory_iterator(e.path(), ec))
                if (f.is_regular_file() && f.path().extension() == ext && f.path().filename().string()[0] != '.') files.push_back(f.path());
            std::sort(files.begin(), files.end());
            if (files.size() == 1) s.file = files[0];
            else if (files.empty()) s.problem = "no " + ext + " file in the folder";
            else {
                auto it = std::find_if(files.begin(), files.end(), [&](const fs::path& p) { return p.filename() == preferred; });
                if (it != files.end()) s.file = *it;
                else {
                    std::string names;
                    for (auto& f : files) names += (names.empty() ? "" : ", ") + f.filename().string();
                    s.problem = "several " + ext + " files (" + names + "): keep one, or name it " + preferred;
                }
            }
            out.push_back(s);
        } else if (e.is_regular_file() && e.path().extension() == ext) {
            out.push_back({e.path().stem().string(), e.path(), ""});
        }
    }
    if (out.empty())
        throw Error(Error::Kind::Input, "No submissions in '" + dir.string() + "' (a " + ext + " file, or a folder, per student).");
    std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
    return out;
}

// ---------------------------------------------------------------- 2. JSON
json gradeToJson(const Exercise& ex, const GradeResult& r, const std::string& file) {
    json out = {{"lesson", ex.lesson}, {"exercise", ex.id}, {"title", ex.title}, {"solution", file}, {"passed", r.passed},
                {"seed", r.seed}, {"hidden_sets", r.hiddenSets}};
    out["criteria"] = json::array();
    for (auto& c : r.criteria) {
        json jc = {{"name", c.name}, {"kind", c.kind}, {"passed", c.passed}, {"measured", c.measured}, {"target", c.target}};
        if (c.value) jc["value"] = *c.value;
        if (!c.panel.empty()) jc["panel"] = c.panel;
        if (c.line) jc["line"] = c.line;
        if (!c.detail.empty()) jc["detail"] = c.detail;
        if (!c.measure.empty()) jc["measure"] = c.measure;
        if (!c.params.empty()) jc["params"] = c.params;
        out["criteria"].push_back(jc);
    }
    return out;
}

GradeResult gradeFromJson(const json& j) {
    try {
        GradeResult r;
        r.passed = j.at("passed").get<bool>();
        r.seed = j.value("seed", uint64_t(0));
        if (j.contains("hidden_sets")) r.hiddenSets = j["hidden_sets"].get<std::vector<std::map<std::string, std::string>>>();
        for (auto& jc : j.at("criteria")) {
            Criterion c;
            c.name = jc.at("name").get<std::string>();
            c.kind = jc.value("kind", "");
            c.passed = jc.at("passed").get<bool>();
            c.measured = jc.value("measured", "");
            c.target = jc.value("target", "");
            if (jc.contains("value")) c.value = jc["value"].get<double>();
            c.panel = jc.value("panel", "");
            c.line = jc.value("line", 0);
            c.detail = jc.value("detail", "");
            c.measure = jc.value("measure", "");
            if (jc.contains("params")) c.params = jc["params"].get<std::map<std::string, std::string>>();
            r.criteria.push_back(std::move(c));
        }
        return r;
    } catch (const json::exception& e) {
        throw Error(Error::Kind::Input, std::string("not a grade: ") + e.what());
    }
}

// ---------------------------------------------------------------- 3. rows and columns
std::string firstReason(const GradeResult& r) {
    for (auto& c : r.criteria)
        if (!c.passed) {
            std::string s = c.name + ": " + c.measured;
            if (!c.target.empty()) s += " (target " + c.target + ")";
            if (!c.detail.empty()) {
                std::string first = c.detail.substr(0, c.detail.find('\n'));
                if (first.size() > 240) first = first.substr(0, 237) + "...";
                s += " - " + first;
            }
            if (c.line) s += " [line " + std::to_string(c.line) + "]";
            return s;
        }
    return "";
}

std::vector<std::string> criterionColumns(const std::vector<StudentRow>& rows) {
    std::vector<std::string> cols;
    std::set<std::string> seen;
    // The longest list first, so a submission that stopped at compiling does not set the order.
    std::vector<const StudentRow*> order;
    for (auto& r : rows) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->result.criteria.size() > b->result.criteria.size(); });
    for (auto* r : order)
        for (auto& c : r->result.criteria)
            if (seen.insert(c.name).second) cols.push_back(c.name);
    return cols;
}

namespace {

const Criterion* find(const StudentRow& r, const std::string& name) {
    for (auto& c : r.result.criteria)
        if (c.name == name) return &c;
    return nullptr;
}

std::string verdict(const StudentRow& r) { return !r.graded ? "NOT GRADED" : r.passed ? "PASS" : "FAIL"; }

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

std::string html(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        default: o += c;
        }
    }
    return o;
}

std::string fmt(double v, int digits) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return b;
}

} // namespace

// ---------------------------------------------------------------- 4. CSV
std::string classCsv(const Exercise& ex, const std::vector<StudentRow>& rows, const ClassInfo& info) {
    (void)ex;
    std::vector<std::string> cols = criterionColumns(rows);
    std::ostringstream o;
    o << "student,file,verdict,criteria passed";
    for (auto& c : cols) o << "," << csvField(c + ": measured") << "," << csvField(c + ": target") << "," << csvField(c + ": pass");
    o << ",seed,seconds,first reason\r\n";
    for (auto& r : rows) {
        int passed = 0;
        for (auto& c : r.result.criteria) passed += c.passed;
        o << csvField(r.student) << "," << csvField(r.file) << "," << verdict(r) << ","
          << (r.graded ? std::to_string(passed) + " of " + std::to_string(r.result.criteria.size()) : "");
        for (auto& name : cols) {
            const Criterion* c = find(r, name);
            if (c) o << "," << csvField(c->measured) << "," << csvField(c->target) << "," << (c->passed ? "PASS" : "FAIL");
            else o << ",,,";
        }
        o << "," << (r.graded ? std::to_string(r.result.seed) : std::to_string(info.seed)) << "," << fmt(r.seconds, 2) << ","
          << csvField(r.reason) << "\r\n";
    }
    return o.str();
}

// ---------------------------------------------------------------- 5. HTML
std::string classHtml(const Exercise& ex, const std::vector<StudentRow>& rows, const ClassInfo& info) {
    std::vector<std::string> cols = criterionColumns(rows);
    int pass = 0, fail = 0, ungraded = 0;
    for (auto& r : rows) (!r.graded ? ungraded : r.passed ? pass : fail)++;
    std::map<std::string, std::pair<int, int>> perCol;   // passed, ran
    for (auto& r : rows)
        for (auto& c : r.result.criteria) {
            auto& pc = perCol[c.name];
            pc.first += c.passed;
            ++pc.second;
        }
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" << html(ex.lesson + " / " + ex.id)
      << ": class grades</title>\n<style>\n"
         "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px;color:#1d232a;background:#fff}\n"
         "h1{font-size:22px;margin:0 0 4px}\n.sub{color:#555;margin:0 0 16px}\n"
         ".cards{display:flex;gap:12px;margin:0 0 18px}\n.card{border:1px solid #d5dae0;border-radius:6px;padding:8px 14px;min-width:110px}\n"
         ".card b{display:block;font-size:24px}\n.card.ok b{color:#1b7f3b}.card.bad b{color:#b3261e}.card.gray b{color:#6b6b6b}\n"
         "table{border-collapse:collapse;font-size:13px}\nth,td{border:1px solid #d5dae0;padding:4px 6px;vertical-align:top}\n"
         "th{background:#eef1f4;text-align:left;position:sticky;top:0}\nth.crit{max-width:120px;font-weight:600;font-size:11px}\n"
         "td.p{background:#e3f4e8;color:#14532d}\ntd.f{background:#fbe4e2;color:#7f1d1d}\ntd.n{background:#f1f1f1;color:#777}\n"
         "td.v{font-weight:700;white-space:nowrap}\ntd.s{white-space:nowrap}\ntd.reason{min-width:260px;max-width:380px;font-size:12px}\ntd.p,td.f{font-size:12px;max-width:120px}\ntr:nth-child(even) td.s{background:#f8f9fa}\n"
         ".rate{font-size:11px;color:#555;font-weight:400;display:block}\n.foot{margin-top:14px;color:#666;font-size:12px}\n"
         "</style></head><body>\n";
    o << "<h1>" << html(ex.title) << "</h1>\n<p class=\"sub\">" << html(ex.lesson + " / " + ex.id) << " &middot; " << rows.size()
      << " submissions &middot; graded " << html(info.date) << " in " << fmt(info.wallSeconds, 1) << " s on " << info.threads
      << (info.threads == 1 ? " process" : " processes") << " &middot; hidden parameter sets from seed <b>" << info.seed
      << "</b> (<code>warpscope grade " << html(ex.lesson) << " --exercise " << html(ex.id) << " --seed " << info.seed
      << " --solution FILE</code> gives the same grade)</p>\n";
    o << "<div class=\"cards\"><div class=\"card ok\"><b>" << pass << "</b>passed</div><div class=\"card bad\"><b>" << fail
      << "</b>failed</div><div class=\"card gray\"><b>" << ungraded << "</b>not graded</div></div>\n";
    // The first reason beside the verdict (what a teacher reads first), then one narrow column per
    // criterion: a tick when it passed, what was measured when it failed; the whole measure and
    // the target in each cell's tooltip.
    o << "<table>\n<tr><th>#</th><th>student</th><th>verdict</th><th>first reason</th>";
    for (auto& c : cols) {
        auto pc = perCol[c];
        o << "<th class=\"crit\">" << html(c) << "<span class=\"rate\">" << pc.first << " of " << pc.second << " pass</span></th>";
    }
    o << "</tr>\n";
    auto shortText = [](const std::string& t, size_t n) { return t.size() > n ? t.substr(0, n - 3) + "..." : t; };
    int n = 0;
    for (auto& r : rows) {
        o << "<tr><td class=\"s\">" << ++n << "</td><td class=\"s\" title=\"" << html(r.file) << "\">" << html(r.student) << "</td>";
        o << "<td class=\"v " << (!r.graded ? "n" : r.passed ? "p" : "f") << "\">" << verdict(r) << "</td>";
        o << "<td class=\"reason\" title=\"" << html(r.reason) << "\">" << html(shortText(r.reason, 160)) << "</td>";
        for (auto& name : cols) {
            const Criterion* c = find(r, name);
            if (!c) {
                o << "<td class=\"n\">&ndash;</td>";
                continue;
            }
            std::string tip = c->measured + " (target: " + c->target + ")";
            std::string cell = c->passed ? (c->kind == "performance" || c->kind == "parallel" ? "&#10003; " + html(shortText(c->measured, 18)) : "&#10003;")
                                         : html(shortText(c->measured, 28));
            o << "<td class=\"" << (c->passed ? "p" : "f") << "\" title=\"" << html(tip) << "\">" << cell << "</td>";
        }
        o << "</tr>\n";
    }
    o << "</table>\n<p class=\"foot\">Each cell shows what was measured; hover it for the target. Written by warpscope grade-all.</p>\n"
         "</body></html>\n";
    return o.str();
}

} // namespace warpscope::grade
