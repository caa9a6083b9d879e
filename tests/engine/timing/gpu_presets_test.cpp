// The bundled GPU presets are data (assets/gpus/*.json): every file gives every number and says
// where each comes from; the engine reads them from the data folder.
#include "base/data_dir.hpp"
#include "base/error.hpp"
#include "support.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

using namespace warpscope;
using namespace warpscope::timing;
namespace fs = std::filesystem;

TEST_CASE("Bundled presets: one file each, every key given, every number sourced", "[timing]") {
    const fs::path dir = wst::sourcePath("assets/gpus");
    REQUIRE(shippedPresetFolder() == fs::path(base::findDataDir()) / "assets" / "gpus");
    std::set<std::string> fileNames;
    for (auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".json") fileNames.insert(e.path().stem().string());
    CHECK(fileNames == std::set<std::string>{"a100", "h100", "rtx4090", "teaching", "v100"});
    REQUIRE(builtinPresets().size() == fileNames.size());

    const std::vector<std::string> keys = numericPresetKeys();
    for (auto& name : fileNames) {
        INFO("assets/gpus/" << name << ".json");
        const nlohmann::json j = nlohmann::json::parse(wst::readFile((dir / (name + ".json")).string()));
        CHECK(j.at("name") == name);
        CHECK_FALSE(j.contains("base"));
        std::map<std::string, int> sourced;
        for (auto& [k, text] : j.at("sources").items()) {
            CHECK(text.get<std::string>().size() > 20);   // a real sentence, not a placeholder
            for (auto& key : sourceKeys(k)) ++sourced[key];
        }
        for (auto& key : keys) {
            INFO(key);
            CHECK(j.contains(key));
            CHECK(sourced[key] == 1);   // sourced exactly once
        }
        CHECK(sourced.size() == keys.size());
        // The parsed preset is the file, number for number.
        GpuSpec p = presetFromJson(j.dump(), name, true);
        CHECK(p.smCount == j.at("smCount").get<uint32_t>());
        CHECK(p.dramGBs == j.at("dramGBs").get<double>());
        CHECK(p.sources.size() == j.at("sources").size());
    }
    // The listing order: the classroom GPU, then by release date.
    std::vector<std::string> order;
    for (auto& p : builtinPresets()) order.push_back(p.name);
    CHECK(order == std::vector<std::string>{"teaching", "v100", "a100", "h100", "rtx4090"});
}

TEST_CASE("Bundled presets: nothing fills a missing key; sources name real keys", "[timing]") {
    // The C++ holds no GPU's numbers: a default GpuSpec describes no GPU.
    GpuSpec none;
    CHECK(none.smCount == 0);
    CHECK(none.dramGBs == 0);
    CHECK(none.sharedPerSM == 0);

    nlohmann::json full = nlohmann::json::parse(presetToJson(*std::find_if(builtinPresets().begin(), builtinPresets().end(),
                                                                           [](const GpuSpec& g) { return g.name == "a100"; })));
    full.erase("sources");
    CHECK(presetFromJson(full.dump(), "complete", true).smCount == 108);
    nlohmann::json gap = full;
    gap.erase("l2HitLatency");
    CHECK_THROWS_WITH(presetFromJson(gap.dump(), "gap", true), Catch::Contains("\"l2HitLatency\" is missing"));
    // A user's preset may leave keys out: they come from the bundled H100.
    CHECK(presetFromJson(gap.dump(), "user").l2HitLatency == 260);
    nlohmann::json based = full;
    based["base"] = "a100";
    CHECK_THROWS_WITH(presetFromJson(based.dump(), "bundled", true), Catch::Contains("no \"base\""));

    nlohmann::json src = {{"name", "s"}, {"sources", {{"smCount, clockMHz", "my notes on the chip"}}}};
    GpuSpec s = presetFromJson(src.dump(), "s");
    CHECK(s.sources.at("smCount, clockMHz") == "my notes on the chip");
    CHECK(nlohmann::json::parse(presetToJson(s)).at("sources").size() == 1);
    src["sources"] = {{"smCount, clockMhz", "a typo"}};
    CHECK_THROWS_WITH(presetFromJson(src.dump(), "s"), Catch::Contains("names no preset key ('clockMhz')"));
    src["sources"] = {{"smCount", 3}};
    CHECK_THROWS_WITH(presetFromJson(src.dump(), "s"), Catch::Contains("must be a non-empty text"));
    src["sources"] = "all of them";
    CHECK_THROWS_AS(presetFromJson(src.dump(), "s"), Error);
}
