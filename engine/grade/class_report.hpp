// Grading a class (warpscope grade-all): finding each student's submission in a folder, the grade
// of one submission as JSON (what `warpscope grade --json` prints and grade-all reads back from
// each child process), and the class's table as CSV and as a self-contained HTML page.
//
// Sections: submissions, results as JSON, rows, CSV, HTML.
#pragma once
#include "grade/grader.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::grade {

// One student's submission: a file directly in the class folder (the student is its name without
// the extension) or a folder per student holding one file of the exercise's kind (.cu for a
// kernel exercise, .json for a host program). `problem` says why it cannot be graded ("" = fine).
struct Submission {
    std::string student;
    std::filesystem::path file;
    std::string problem;
};
// Every submission under `dir`, sorted by student. Hidden entries and files of other kinds
// directly in `dir` (a README, the teacher's notes) are skipped. Error(Input) when `dir` is not a
// folder or holds no submission at all.
std::vector<Submission> findSubmissions(const std::filesystem::path& dir, const Exercise& ex);

// A grade as JSON (criteria with measured, target, value, panel, line, detail, params; the seed
// and the hidden sets) and back. gradeFromJson throws Error(Input) on a malformed document.
nlohmann::json gradeToJson(const Exercise& ex, const GradeResult& r, const std::string& file);
GradeResult gradeFromJson(const nlohmann::json& j);

// One row of the class table.
struct StudentRow {
    std::string student, file;
    bool graded = false;       // false: the child did not deliver a grade (timeout, crash, no file)
    bool passed = false;
    double seconds = 0;        // wall-clock time of its child process
    GradeResult result;        // when graded
    std::string reason;        // the first failing criterion ("" when it passed), or why it was not graded
};
// The first failing criterion as one line: "name: measured (target ...) - first line of detail".
std::string firstReason(const GradeResult& r);

struct ClassInfo {
    uint64_t seed = 0;
    int threads = 1;
    double wallSeconds = 0;
    std::string date;          // when it was graded (UTC), shown in the HTML heading
};

// Criterion columns in the order they first appear over all rows (a submission that does not
// compile has fewer criteria; its other cells stay empty).
std::vector<std::string> criterionColumns(const std::vector<StudentRow>& rows);

// student, file, verdict, passed criteria, then per criterion "<name>: measured", ": target",
// ": pass" (PASS/FAIL, empty when not run), then seed, seconds and the first reason. RFC 4180 quoting.
std::string classCsv(const Exercise& ex, const std::vector<StudentRow>& rows, const ClassInfo& info);
// One page, no scripts or links to fetch: a summary (passed, failed, not graded, the seed, the
// time), how many passed each criterion, and one row per student with each criterion's cell
// (measured, coloured pass/fail, the target in its tooltip) and the first reason.
std::string classHtml(const Exercise& ex, const std::vector<StudentRow>& rows, const ClassInfo& info);

} // namespace warpscope::grade
