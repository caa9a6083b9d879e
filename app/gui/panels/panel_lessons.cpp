// Lessons panel: the course map (lessons in course order, each with its exercises and the
// learner's progress on them), the lesson's parameters (rebuild the launch), and its steps.md
// rendered as readable text, one `##` step at a time: the step's actions ("Do it", or on Next),
// and hidden answers that open once the student has run the step (or presses Reveal).
#include "gui/model/course_model.hpp"
#include "gui/model/markdown.hpp"
#include "gui/panels/panels.hpp"
#include "gui/model/step_actions.hpp"
#include "gui/model/text_fit.hpp"

#include <cfloat>
#include <cstdlib>
#include <filesystem>
#include <cmath>
#include <map>

namespace warpscope::gui {

namespace {

ImFont* fontFor(const AppContext& app, MdSpan::Kind k) {
    switch (k) {
    case MdSpan::Kind::Code: return app.fonts.mono;
    case MdSpan::Kind::Bold: return app.fonts.bold;
    case MdSpan::Kind::Italic: return app.fonts.italic;
    case MdSpan::Kind::Text: break;
    }
    return app.fonts.ui;
}

// Word-wrapped rich text: spans in their own fonts, inline code on a tinted background.
void richText(AppContext& app, const std::vector<MdSpan>& spans, float indent, ImFont* base = nullptr) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float maxW = std::max(50.0f, ImGui::GetContentRegionAvail().x);
    ImFont* baseFont = base ? base : app.fonts.ui;
    float lineH = baseFont->FontSize + ImGui::GetStyle().ItemSpacing.y;
    float x = indent, y = 0;
    ImU32 textCol = ImGui::GetColorU32(ImGuiCol_Text);
    ImU32 codeCol = app.settings.darkTheme ? IM_COL32(240, 200, 120, 255) : IM_COL32(140, 70, 0, 255);
    ImU32 codeBg = app.settings.darkTheme ? IM_COL32(255, 255, 255, 28) : IM_COL32(0, 0, 0, 20);
    for (const MdSpan& sp : spans) {
        ImFont* f = sp.kind == MdSpan::Kind::Text && base ? base : fontFor(app, sp.kind);
        if (!f) f = baseFont;
        float fs = f->FontSize;
        float yoff = (baseFont->FontSize - fs) * 0.7f;
        const std::string& t = sp.text;
        size_t i = 0;
        while (i < t.size()) {
            size_t j = i;
            while (j < t.size() && t[j] != ' ') ++j;   // word
            size_t k = j;
            while (k < t.size() && t[k] == ' ') ++k;   // trailing spaces
            const char* wb = t.c_str() + i;
            float ww = f->CalcTextSizeA(fs, FLT_MAX, 0, wb, t.c_str() + j).x;
            float sw = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str() + j, t.c_str() + k).x;
            if (ww > maxW - indent) {
                // A word wider than a whole line (long inline code): draw what fits on this line, the rest on the next.
                if (maxW - x < fs * 2) {
                    x = indent;
                    y += lineH;
                }
                size_t cut = i + 1;
                while (cut < j && f->CalcTextSizeA(fs, FLT_MAX, 0, wb, t.c_str() + cut + 1).x <= maxW - x) ++cut;
                while (cut < j && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) ++cut;   // not inside a UTF-8 character
                if (cut < j) {
                    j = k = cut;
                    ww = f->CalcTextSizeA(fs, FLT_MAX, 0, wb, t.c_str() + j).x;
                    sw = 0;
                }
            }
            if (x + ww > maxW && x > indent) {
                x = indent;
                y += lineH;
            }
            ImVec2 p(origin.x + x, origin.y + y + yoff);
            if (sp.kind == MdSpan::Kind::Code)
                dl->AddRectFilled(ImVec2(p.x - 2, origin.y + y - 1), ImVec2(p.x + ww + (k < t.size() ? sw : 0) + 2, origin.y + y + baseFont->FontSize + 1),
                                  codeBg, 3);   // spaces inside a code span keep their background
            if (j > i) dl->AddText(f, fs, p, sp.kind == MdSpan::Kind::Code ? codeCol : textCol, wb, t.c_str() + j);
            x += ww + sw;
            i = k;
        }
    }
    ImGui::Dummy(ImVec2(maxW, y + baseFont->FontSize));
}

// A box with a coloured bar on the left (quotes, answers); `body` draws its contents.
template <class F>
void barBox(AppContext& app, ImU32 bar, ImU32 bg, F&& body) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    float pad = ImGui::GetFontSize() * 0.5f;
    ImGui::SetCursorScreenPos(ImVec2(p0.x + pad * 1.5f, p0.y + pad * 0.6f));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(0);
    body();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    ImVec2 p1(p0.x + ImGui::GetContentRegionAvail().x + pad * 1.5f, ImGui::GetItemRectMax().y + pad * 0.6f);
    dl->ChannelsSetCurrent(0);
    dl->AddRectFilled(p0, p1, bg, 3);
    dl->AddRectFilled(p0, ImVec2(p0.x + 3, p1.y), bar);
    dl->ChannelsMerge();
    ImGui::SetCursorScreenPos(ImVec2(p0.x, p1.y));
    ImGui::Dummy(ImVec2(1, ImGui::GetStyle().ItemSpacing.y));
    (void)app;
}

// Per-lesson state of the steps view: the parsed text, its actions and problems, and the
// hidden answers' gates (per step).
struct StepsState {
    std::shared_ptr<const LessonInfo> parsedFor;   // held: a raw pointer could be a freed lesson's reused address
    MdDocument doc;
    StepsCheck check;
    std::map<int, AnswerGate> gates;
    int shown = -1;                 // the section the gates' baselines belong to
    int scrolledFor = -1;           // the section the text's scroll position belongs to (a new one starts at the top)
    std::string focusPanel;         // `open` action: focus this window on the next frames
    int focusFrames = 0;
    std::string actionNote;         // what the last Do it could not do
    bool autoActions = true;        // Next also does the next step's actions (not for steps with answers)
    std::vector<StepAction> landing;   // Do it's actions, checked once the session is idle again
    int landingIdleFrames = -1;        // -1: nothing to check
};

StepsState& stepsState() {
    static StepsState st;
    return st;
}

// Parses the current lesson's steps.md once per lesson text.
StepsState* currentSteps(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.lesson || s.lesson->stepsMarkdown.empty()) return nullptr;
    StepsState& st = stepsState();
    if (st.parsedFor != s.lesson) {
        bool sameLesson = st.parsedFor && st.parsedFor->lesson.dir == s.lesson->lesson.dir;
        st.doc = parseMarkdown(s.lesson->stepsMarkdown);
        st.check = checkSteps(st.doc, actionContextFor(s.lesson->lesson), (s.lesson->lesson.dir / "steps.md").string());
        st.parsedFor = s.lesson;
        if (!sameLesson) {   // a parameter change rebuilds LessonInfo: keep what was revealed
            st.gates.clear();
            st.shown = -1;
            st.scrolledFor = -1;
            st.actionNote.clear();
            st.landingIdleFrames = -1;
        }
    }
    return &st;
}

void renderAnswer(AppContext& app, const MdBlock& b, AnswerGate& gate);

void renderBlocks(AppContext& app, const std::vector<MdBlock>& blocks, AnswerGate* gate = nullptr) {
    for (const MdBlock& b : blocks) {
        switch (b.kind) {
        case MdBlock::Kind::Heading:
            ImGui::Spacing();
            richText(app, b.spans, 0, app.fonts.bold);
            break;
        case MdBlock::Kind::Paragraph:
            richText(app, b.spans, 0);
            ImGui::Spacing();
            break;
        case MdBlock::Kind::ListItem: {
            float ind = ImGui::GetFontSize() * (1.2f + b.level * 1.2f);
            ImVec2 p = ImGui::GetCursorScreenPos();
            std::string marker = b.ordered ? std::to_string(b.number) + "." : "\xE2\x80\xA2";   // bullet
            ImGui::GetWindowDrawList()->AddText(ImVec2(p.x + ind - ImGui::GetFontSize() * 0.9f, p.y), ImGui::GetColorU32(ImGuiCol_Text), marker.c_str());
            richText(app, b.spans, ind);
            break;
        }
        case MdBlock::Kind::Code: {
            ImGui::PushFont(app.fonts.mono);
            ImVec2 sz = ImGui::CalcTextSize(b.code.c_str());
            ImVec2 p = ImGui::GetCursorScreenPos();
            float pad = 6;
            ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + std::max(sz.x, ImGui::GetContentRegionAvail().x), p.y + sz.y + 2 * pad),
                                                      app.settings.darkTheme ? IM_COL32(255, 255, 255, 22) : IM_COL32(0, 0, 0, 18), 4);
            ImGui::SetCursorScreenPos(ImVec2(p.x + pad, p.y + pad));
            ImGui::TextUnformatted(b.code.c_str());
            ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + sz.y + 2 * pad));
            ImGui::Dummy(ImVec2(1, ImGui::GetStyle().ItemSpacing.y));
            ImGui::PopFont();
            break;
        }
        case MdBlock::Kind::Rule:
            ImGui::Separator();
            break;
        case MdBlock::Kind::Quote:
            barBox(app, ImGui::GetColorU32(ImGuiCol_TextDisabled), ImGui::GetColorU32(ImGuiCol_FrameBg, 0.5f), [&] { richText(app, b.spans, 0); });
            break;
        case MdBlock::Kind::Answer: {
            static AnswerGate open = [] {
                AnswerGate g;
                g.revealed = true;
                return g;
            }();
            renderAnswer(app, b, gate ? *gate : open);
            break;
        }
        case MdBlock::Kind::Table: {
            if (b.rows.empty()) break;
            int cols = static_cast<int>(b.rows[0].size());
            ImGui::PushID(&b);
            if (ImGui::BeginTable("##mdtable", cols, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
                for (size_t r = 0; r < b.rows.size(); ++r) {
                    ImGui::TableNextRow(r == 0 ? ImGuiTableRowFlags_Headers : 0);
                    for (int c = 0; c < cols; ++c) {
                        ImGui::TableSetColumnIndex(c);
                        richText(app, b.rows[r][static_cast<size_t>(c)], 0, r == 0 ? app.fonts.bold : nullptr);
                    }
                }
                ImGui::EndTable();
            }
            ImGui::PopID();
            ImGui::Spacing();
            break;
        }
        }
    }
}

// A hidden answer: collapsed (with Reveal) until the gate opens, then the text in a green box.
void renderAnswer(AppContext& app, const MdBlock& b, AnswerGate& gate) {
    ImU32 green = col(okabe_ito::BluishGreen);
    ImGui::PushID(&b);
    if (gate.revealed) {
        barBox(app, green, col(okabe_ito::BluishGreen, 40), [&] { richText(app, b.spans, 0); });
    } else {
        barBox(app, ImGui::GetColorU32(ImGuiCol_TextDisabled), ImGui::GetColorU32(ImGuiCol_FrameBg, 0.5f), [&] {
            ImGui::PushFont(app.fonts.bold);
            ImGui::TextUnformatted("Answer");
            ImGui::PopFont();
            ImGui::SameLine();
            ImGui::TextDisabled("hidden until you run the step");
            ImGui::SameLine();
            if (ImGui::SmallButton("Reveal")) gate.revealed = true;
        });
    }
    ImGui::PopID();
}

RunProgress progressOf(const Snapshot& s) {
    return {s.generation, s.totalSteps + s.totalCycleSteps, s.state == RunState::Finished};
}

// The app's side of applying step actions: parameters and Timed mode through the UI state (so
// the widgets show them), panels and layouts, pins on the memory panels.
struct AppActionTarget : StepActionTarget {
    AppContext& app;
    StepsState& st;
    AppActionTarget(AppContext& a, StepsState& s) : app(a), st(s) {}
    bool setParams(const std::vector<std::pair<std::string, double>>& values, bool defaultsFirst) override {
        auto& ui = app.ui;
        if (defaultsFirst)
            for (auto& p : ui.lessons[static_cast<size_t>(ui.current)].params) ui.params[p.name] = p.defaultValue;
        for (auto& [name, v] : values) ui.params[name] = v;
        app.applyParams();
        return true;
    }
    bool setTimed(const std::string& name) override {
        auto& ui = app.ui;
        if (name == "off") {
            if (!ui.timed) return false;
            ui.timed = false;
            app.applyTiming();
            return true;
        }
        int idx = -1;
        for (size_t i = 0; i < ui.presets.size(); ++i)
            if (ui.presets[i].name == name) idx = static_cast<int>(i);
        if (idx < 0) {
            st.actionNote = "No GPU preset named '" + name + "'.";
            return false;
        }
        if (ui.timed && ui.preset == idx) return false;
        ui.preset = idx;
        ui.timed = true;
        app.applyTiming();
        return true;
    }
    bool setCheckers(bool initcheck, bool racecheck) override {
        std::shared_ptr<const Snapshot> s = app.session.snapshot();
        if (s->initcheck == initcheck && s->racecheck == racecheck) return false;
        app.session.setCheckers(initcheck, racecheck);
        return true;
    }
    void restart() override { app.session.restart(); }
    void select(uint32_t block, uint32_t warp) override {
        app.settings.followIssuing = false;
        app.session.select(block, warp, false);
    }
    void runToLine(uint32_t line) override {
        app.session.runToLine(line);
        app.ui.clickedLine = 0;
    }
    void runToBarrier() override { app.session.runToBarrier(); }
    void runToEnd() override { app.session.runToEnd(); }
    void runSteps(uint64_t n) override { app.session.runSteps(n); }
    void pin(bool shared, const MemPin& p) override {
        (shared ? app.ui.sharedPin : app.ui.globalPin) = p;
        (shared ? app.ui.sharedPick : app.ui.globalPick) = 0;
    }
    void ui(const StepAction& a) override {
        auto& ui = app.ui;
        switch (a.kind) {
        case StepAction::Kind::ShowLine:
            ui.clickedLine = a.line;
            ui.scrollToLine = a.line;
            break;
        case StepAction::Kind::Layout:
            if (findLayout(a.name)) ui.actionLayout = a.name;
            else st.actionNote = "No layout named '" + a.name + "'.";
            break;
        case StepAction::Kind::Open: {
            const PanelDef* def = nullptr;
            for (auto& p : panels())
                if (a.name == p.id) def = &p;
            if (!def) {
                st.actionNote = "No panel named '" + a.name + "'.";
                break;
            }
            // Presenter: the step's panel goes into the slot beside Source, never floating.
            if (ui.layout == "presenter") ui.actionPanel = def->id;
            else app.settings.panelsOpen[def->id] = true;
            st.focusPanel = def->title;
            st.focusFrames = 3;
            break;
        }
        default: break;
        }
    }
};

void applyActions(AppContext& app, const std::vector<StepAction>& actions, StepsState& st) {
    if (app.ui.current < 0) return;
    st.actionNote.clear();
    AppActionTarget t(app, st);
    applyStepActions(actions, t);
    st.landing = actions;   // checked once the session is idle again
    st.landingIdleFrames = 0;
}

// The course map: lessons in course order (lessons/course.json), each with a row of dots for its
// exercises (filled: solved, ring: tried, grey ring: not started; hover for names).
CourseModel& courseModel() {
    static CourseModel m;
    return m;
}

const CourseView& courseView(AppContext& app) {
    std::vector<grade::LessonKey> ids;
    for (auto& L : app.ui.lessons) ids.push_back({L.id, L.order});
    // WARPSCOPE_PROGRESS names a learner's progress.json to show (a screenshot or a demo of the
    // course map: headless runs keep no settings of their own).
    const char* shown = std::getenv("WARPSCOPE_PROGRESS");
    return courseModel().view(app.ui.lessonsDir, ids, shown && *shown ? std::filesystem::path(shown) : progressFile(), ImGui::GetTime());
}

// One entry's height as lessonList lays it out (the list's child window is sized from it).
float lessonEntryHeight(AppContext& app, const CourseLesson& c, float w) {
    const auto& L = app.ui.lessons[size_t(c.lessonIndex)];
    ImGui::PushFont(app.fonts.bold);
    float h1 = ImGui::CalcTextSize((std::to_string(c.position) + ". " + L.title).c_str(), nullptr, false, w - 8).y;
    ImGui::PopFont();
    float h = h1 + ImGui::CalcTextSize(L.summary.c_str(), nullptr, false, w - 8).y + 6;
    if (!c.exercises.empty()) h += ImGui::GetTextLineHeight() + 2;
    return h;
}

void lessonList(AppContext& app) {
    auto& ui = app.ui;
    if (ui.lessons.empty()) {
        ImGui::TextWrapped("No lessons found. Set WARPSCOPE_LESSONS to the lessons folder%s.",
                           ui.lessonsDir.empty() ? "" : (" (looked in " + ui.lessonsDir + ")").c_str());
    }
    const CourseView& course = courseView(app);
    for (const CourseLesson& c : course.lessons) {
        if (c.lessonIndex < 0 || size_t(c.lessonIndex) >= ui.lessons.size()) continue;
        const size_t i = size_t(c.lessonIndex);
        const auto& L = ui.lessons[i];
        ImGui::PushID(static_cast<int>(i));
        bool sel = static_cast<int>(i) == ui.current;
        ImVec2 p = ImGui::GetCursorScreenPos();
        float w = ImGui::GetContentRegionAvail().x;
        // The title wraps like the summary (a narrow panel keeps all of "4. 1D stencil: shared memory and __syncthreads").
        std::string title = std::to_string(c.position) + ". " + L.title;
        ImGui::PushFont(app.fonts.bold);
        float h1 = ImGui::CalcTextSize(title.c_str(), nullptr, false, w - 8).y;
        ImGui::PopFont();
        float wrapH = ImGui::CalcTextSize(L.summary.c_str(), nullptr, false, w - 8).y;
        if (ImGui::Selectable("##lesson", sel, 0, ImVec2(w, lessonEntryHeight(app, c, w)))) {
            if (!sel) app.switchLesson(static_cast<int>(i));
        }
        bool hovered = ImGui::IsItemHovered();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddText(app.fonts.bold, app.fonts.bold->FontSize, ImVec2(p.x + 4, p.y + 1), ImGui::GetColorU32(ImGuiCol_Text), title.c_str(), nullptr, w - 8);
        dl->AddText(app.fonts.ui, app.fonts.ui->FontSize, ImVec2(p.x + 4, p.y + h1 + 3), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                    L.summary.c_str(), nullptr, w - 8);
        if (!c.exercises.empty()) {
            float y = p.y + h1 + wrapH + 5, lh = ImGui::GetTextLineHeight();
            std::string label = "Exercises " + std::to_string(c.solved) + "/" + std::to_string(c.exercises.size());
            dl->AddText(app.fonts.ui, app.fonts.ui->FontSize, ImVec2(p.x + 4, y), ImGui::GetColorU32(ImGuiCol_TextDisabled), label.c_str());
            float x = p.x + 4 + ImGui::CalcTextSize(label.c_str()).x + lh * 0.6f, r = lh * 0.28f;
            const ImU32 solved = IM_COL32(60, 170, 90, 255), tried = IM_COL32(230, 150, 40, 255);
            const ImU32 fresh = ImGui::GetColorU32(ImGuiCol_TextDisabled);
            for (auto& e : c.exercises) {
                if (x + r > p.x + w - 4) break;   // a very narrow panel: the count above still says it
                ImVec2 ctr(x + r, y + lh * 0.5f);
                if (e.record.solved) dl->AddCircleFilled(ctr, r, solved);
                else dl->AddCircle(ctr, r, e.record.attempts ? tried : fresh, 0, e.record.attempts ? 2.5f : 1.5f);
                x += r * 2 + lh * 0.35f;
            }
            if (hovered) {
                ImGui::BeginTooltip();
                for (auto& e : c.exercises)
                    ImGui::Text("%s  %s%s", e.record.solved ? "solved     " : e.record.attempts ? "tried      " : "not started", e.title.c_str(),
                                e.record.attempts ? (" (" + std::to_string(e.record.attempts) + (e.record.attempts == 1 ? " grade)" : " grades)")).c_str() : "");
                ImGui::EndTooltip();
            }
        }
        ImGui::PopID();
    }
    for (auto& e : ui.lessonErrors) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(faultColor()));
        ImGui::TextWrapped("Skipped: %s", e.c_str());
        ImGui::PopStyleColor();
    }
    for (auto& e : course.errors) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(faultColor()));
        ImGui::TextWrapped("%s", e.c_str());
        ImGui::PopStyleColor();
    }
}

std::string fmtValue(double v, bool isFloat) {
    char buf[64];
    if (isFloat) std::snprintf(buf, sizeof buf, "%g", v);
    else std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(v)));
    return buf;
}

void paramWidgets(AppContext& app) {
    auto& ui = app.ui;
    const auto& L = ui.lessons[static_cast<size_t>(ui.current)];
    if (L.params.empty()) {
        ImGui::TextDisabled("This lesson has no parameters.");
        return;
    }
    bool changed = false;
    float labelW = 0;
    for (auto& p : L.params) labelW = std::max(labelW, ImGui::CalcTextSize(p.name.c_str()).x);
    for (auto& p : L.params) {
        ImGui::PushID(p.name.c_str());
        double& v = ui.params[p.name];
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(p.name.c_str());
        if (!p.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
        ImGui::SameLine(labelW + ImGui::GetStyle().ItemSpacing.x * 2 + ImGui::GetStyle().WindowPadding.x);
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (!p.choices.empty()) {
            std::string cur = fmtValue(v, p.isFloat);
            if (ImGui::BeginCombo("##v", cur.c_str())) {
                for (double c : p.choices) {
                    if (ImGui::Selectable(fmtValue(c, p.isFloat).c_str(), c == v)) {
                        v = c;
                        changed = true;
                    }
                }
                ImGui::EndCombo();
            }
        } else if (p.min && p.max && !p.isFloat && *p.min == 0 && *p.max == 1) {
            // An on/off parameter (PAD 0/1): a checkbox, not a two-position slider that reads as a progress bar.
            bool on = v != 0;
            if (ImGui::Checkbox(on ? "1 (on)##v" : "0 (off)##v", &on)) {
                v = on ? 1 : 0;
                changed = true;
            }
        } else if (p.min && p.max && !p.isFloat) {
            int iv = static_cast<int>(v), lo = static_cast<int>(*p.min), hi = static_cast<int>(*p.max);
            ImGuiSliderFlags fl = ImGuiSliderFlags_AlwaysClamp | (hi - lo > 4096 ? ImGuiSliderFlags_Logarithmic : 0);
            ImGui::SliderInt("##v", &iv, lo, hi, "%d", fl);
            v = iv;
            changed |= ImGui::IsItemDeactivatedAfterEdit();
        } else if (p.min && p.max) {
            float fv = static_cast<float>(v);
            ImGui::SliderFloat("##v", &fv, static_cast<float>(*p.min), static_cast<float>(*p.max), "%g", ImGuiSliderFlags_AlwaysClamp);
            v = fv;
            changed |= ImGui::IsItemDeactivatedAfterEdit();
        } else {
            ImGui::InputDouble("##v", &v, 0, 0, p.isFloat ? "%g" : "%.0f");
            if (p.min) v = std::max(v, *p.min);
            if (p.max) v = std::min(v, *p.max);
            changed |= ImGui::IsItemDeactivatedAfterEdit();
        }
        if (!p.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
        ImGui::PopID();
    }
    if (changed) app.applyParams();
    if (ImGui::SmallButton("Defaults")) {
        for (auto& p : L.params) ui.params[p.name] = p.defaultValue;
        app.applyParams();
    }
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("changing a value rebuilds the launch");
    ImGui::PopStyleColor();
}

// The summary shown beside Do it: "set SMEM=120 · Timed mode on h100 · run to the end of the launch".
std::string actionSummary(const std::vector<StepAction>& acts) {
    std::string t;
    for (auto& a : acts) t += (t.empty() ? "" : " \xC2\xB7 ") + describeAction(a);
    return t;
}

void stepsView(AppContext& app) {
    auto& ui = app.ui;
    StepsState* stp = currentSteps(app);
    if (!stp) {
        ImGui::TextDisabled("This lesson has no steps.md.");
        return;
    }
    StepsState& st = *stp;
    const MdDocument& doc = st.doc;
    if (st.focusFrames > 0) {   // the panel may only exist from the next frame on
        ImGui::SetWindowFocus(st.focusPanel.c_str());
        --st.focusFrames;
    }
    int n = static_cast<int>(doc.sections.size());
    ui.stepSection = std::clamp(ui.stepSection, 0, std::max(0, n - 1));
    auto actionsOf = [&](int k) -> const std::vector<StepAction>& {
        static const std::vector<StepAction> none;
        return k >= 0 && k < static_cast<int>(st.check.actions.size()) ? st.check.actions[static_cast<size_t>(k)] : none;
    };
    // ▶ / ◀ and Page Down / Page Up (a presenter's clicker) turn the page the same way
    // (turnPage in model/step_actions.hpp says when a step's actions run).
    auto turn = [&](int delta) {
        std::vector<PagerStep> pager(static_cast<size_t>(n));
        for (int k = 0; k < n; ++k) {
            PagerStep& p = pager[static_cast<size_t>(k)];
            p.asksPrediction = doc.sections[static_cast<size_t>(k)].hasAnswer();
            if (auto g = st.gates.find(k); g != st.gates.end()) {
                p.revealed = g->second.revealed;
                p.actionsPending = g->second.actionsPending;
            }
            p.hasActions = !actionsOf(k).empty();
        }
        PageTurn t = turnPage(pager, ui.stepSection, delta, st.autoActions);
        if (t.doHere) {
            applyActions(app, actionsOf(ui.stepSection), st);
            st.gates[ui.stepSection].actionsPending = true;
            return;
        }
        ui.stepSection = t.to;
        if (t.doTo) applyActions(app, actionsOf(t.to), st);
    };
    if (ui.pageTurn != 0) {
        turn(ui.pageTurn);
        ui.pageTurn = 0;
    }
    if (n > 0) {
        ImGui::BeginDisabled(ui.stepSection == 0);
        if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) turn(-1);
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(ui.stepSection >= n - 1);
        if (ImGui::ArrowButton("##next", ImGuiDir_Right)) turn(+1);
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::Text("Step %d of %d", ui.stepSection + 1, n);
        sameLineIfFits(ImGui::CalcTextSize("Next does it").x + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::Checkbox("Next does it", &st.autoActions);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Moving to the next step also does its actions (parameters, warp, run to a line, panels).\n"
                              "Steps that ask you to predict something wait for Do it.");
    }
    for (auto& e : st.check.errors) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(faultColor()));
        ImGui::TextWrapped("%s", e.c_str());
        ImGui::PopStyleColor();
    }
    // The hidden answers of the step shown: baseline when it appears, then watch the run.
    AnswerGate& gate = st.gates[ui.stepSection];
    if (st.shown != ui.stepSection) {
        st.shown = ui.stepSection;
        if (!gate.revealed) gate = AnswerGate{};
    }
    updateAnswerGate(gate, progressOf(*app.snap), !app.session.busy());
    // Once Do it's commands are done: say what it could not do, instead of nothing.
    // (Two idle frames: the snapshot read at the start of a frame may predate the last publish.)
    if (st.landingIdleFrames >= 0) {
        bool idle = !app.session.busy() && app.snap->state != RunState::Loading;
        st.landingIdleFrames = idle ? st.landingIdleFrames + 1 : 0;
        if (st.landingIdleFrames >= 2) {
            for (auto& p : landingProblems(st.landing, *app.snap)) st.actionNote += (st.actionNote.empty() ? "" : "\n") + p;
            st.landingIdleFrames = -1;
        }
    }

    const std::vector<StepAction>& acts = actionsOf(ui.stepSection);
    if (!acts.empty()) {
        bool wantsRun = n > 0 && doc.sections[static_cast<size_t>(ui.stepSection)].hasAnswer() && !gate.revealed;
        if (wantsRun) {
            ImGui::PushStyleColor(ImGuiCol_Button, colv(okabe_ito::Blue, 0.8f));
            ImGui::PushStyleColor(ImGuiCol_ButtonHovered, colv(okabe_ito::SkyBlue, 0.9f));
        }
        if (ImGui::Button("Do it")) {
            applyActions(app, acts, st);
            gate.actionsPending = true;
        }
        if (wantsRun) ImGui::PopStyleColor(2);
        std::string sum = actionSummary(acts);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sum.c_str());
        ImGui::SameLine();
        // One line (the whole list in the tooltip): the step's text keeps the room.
        std::string line = ellipsize(sum, ImGui::GetContentRegionAvail().x, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; });
        ImGui::TextDisabled("%s", line.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sum.c_str());
        if (!st.actionNote.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, colv(faultColor()));
            ImGui::TextWrapped("%s", st.actionNote.c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::BeginChild("steps", ImVec2(0, 0), false);
    if (st.scrolledFor != ui.stepSection) {   // another step or lesson: its text starts at the top
        ImGui::SetScrollY(0);
        st.scrolledFor = ui.stepSection;
    }
    if (ui.stepSection == 0) renderBlocks(app, doc.intro);
    if (n > 0) {
        const MdSection& sec = doc.sections[static_cast<size_t>(ui.stepSection)];
        ImGui::PushFont(app.fonts.heading);
        ImGui::TextWrapped("%s", sec.title.c_str());
        ImGui::PopFont();
        ImGui::Spacing();
        renderBlocks(app, sec.blocks, &gate);
    }
    ImGui::EndChild();
}

} // namespace

bool doLessonStepActions(AppContext& app, int section) {
    StepsState* st = currentSteps(app);
    if (!st || section < 0 || section >= static_cast<int>(st->check.actions.size()) || st->check.actions[static_cast<size_t>(section)].empty())
        return false;
    applyActions(app, st->check.actions[static_cast<size_t>(section)], *st);
    app.ui.stepSection = section;
    st->shown = section;
    st->gates[section].actionsPending = true;
    return true;
}

void drawLessonsPanel(AppContext& app) {
    float h = ImGui::GetContentRegionAvail().y;
    // A layout change folds (Presenter: the step text gets the room) or unfolds the lesson list
    // and the parameters once.
    const int fold = app.ui.lessonListOpen;
    app.ui.lessonListOpen = -1;
    // A short panel (1920x1080 at scale 2: about 20 lines) starts with Parameters folded and keeps
    // the lesson list to a few lines that scroll, so the step's text stays on screen.
    const bool shortPanel = h < ImGui::GetTextLineHeightWithSpacing() * 28;
    if (fold >= 0) ImGui::SetNextItemOpen(fold == 1);
    if (ImGui::CollapsingHeader("Lessons", ImGuiTreeNodeFlags_DefaultOpen)) {
        // Tall enough for every entry (as lessonList lays them out), up to a third of the panel.
        float w = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().WindowPadding.x * 2 - ImGui::GetStyle().ScrollbarSize;
        float listH = ImGui::GetStyle().WindowPadding.y * 2;
        const CourseView& course = courseView(app);
        for (const CourseLesson& c : course.lessons)
            if (c.lessonIndex >= 0 && size_t(c.lessonIndex) < app.ui.lessons.size())
                listH += lessonEntryHeight(app, c, w) + ImGui::GetStyle().ItemSpacing.y;
        listH += (app.ui.lessonErrors.size() + course.errors.size()) * ImGui::GetTextLineHeightWithSpacing() * 2;
        listH = std::clamp(listH, ImGui::GetTextLineHeight() * 3, shortPanel ? ImGui::GetTextLineHeightWithSpacing() * 4.5f : h * 0.34f);
        ImGui::BeginChild("list", ImVec2(0, listH), true);
        lessonList(app);
        ImGui::EndChild();
    }
    if (app.ui.current < 0) return;
    drawExerciseProgressLine(app);
    if (fold >= 0) ImGui::SetNextItemOpen(fold == 1);
    else ImGui::SetNextItemOpen(!shortPanel, ImGuiCond_Once);
    if (ImGui::CollapsingHeader("Parameters")) paramWidgets(app);
    ImGui::Separator();
    stepsView(app);
}

} // namespace warpscope::gui
